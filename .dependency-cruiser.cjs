// The layers of src/ (ARCHITECTURE.md): each folder may import only the folders before it in
// LINE. The faces sit on top: sdk/ (the Agent SDK protocol) imports LINE only; cli/ imports LINE
// and sdk/, to dispatch to it; ui/ imports LINE only; cli/ and ui/ never each other. No import cycle at
// all, type-only imports included. `npm test` runs it: `npx depcruise src`.

/** Bottom to top. */
const LINE = [
  // the ground
  'base',
  // the pure parts
  'api',
  'settings',
  'permissions',
  // the effects
  'sandbox',
  'session',
  'hooks',
  'commands',
  'tools',
  'mcp',
  'plugins',
  // the session
  'core',
];
const FACES = ['sdk', 'cli', 'ui'];
/** What each face may import besides LINE. */
const FACE_EXTRA = { sdk: [], cli: ['sdk'], ui: [] };

const folders = (list) => `^src/(${list.join('|')})/`;

function layerRule(folder, allowed) {
  const above = [...LINE, ...FACES].filter((f) => f !== folder && !allowed.includes(f));
  return {
    name: `layer-${folder}`,
    severity: 'error',
    comment: `src/${folder}/ may import only ${allowed.length ? allowed.map((f) => `${f}/`).join(', ') : 'nothing of src/ outside itself'} (see ARCHITECTURE.md)`,
    from: { path: `^src/${folder}/` },
    to: { path: folders(above) },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Part of an import cycle (type-only imports count): a type shared across layers belongs to the ground, and what a lower layer needs from a higher one comes in as a function.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...LINE.map((folder, i) => layerRule(folder, LINE.slice(0, i))),
    ...FACES.map((folder) => layerRule(folder, [...LINE, ...FACE_EXTRA[folder]])),
    {
      name: 'layer-top-level',
      severity: 'error',
      comment: `Every file of src/ sits in one of the layers' folders: ${[...LINE, ...FACES].join(', ')}.`,
      from: { path: '^src/', pathNot: folders([...LINE, ...FACES]) },
      to: {},
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6', 'cjs'],
  },
};
