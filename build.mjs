// Bundles src/ into dist/ with esbuild: a tiny entry that answers --version before anything heavy
// loads, the main bundle (CommonJS, run from V8's code cache), and the same with the Ink app in it,
// which the entry runs instead for the interactive mode; libraries that few runs need are bundles of
// their own too.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { APP_BUNDLE, fastSegmenter, fastStringWidth, inkWithoutDevtools, segmented, wrapWithoutStraySpace, yogaWithoutTopLevelAwait } from './build-app.mjs';
import { builtinsOnce } from './build-builtins.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = [
  '@vscode/ripgrep',
  'pdf-parse',
  'tree-sitter-bash',
  '@napi-rs/canvas',
  'pdfjs-dist',
  // CommonJS that reads __filename: loaded from node_modules, not bundled.
  'write-file-atomic',
  // Loaded only when a proxy applies.
  'https-proxy-agent',
  'http-proxy-agent',
  'undici',
];

const stubDevtools = {
  name: 'stub-react-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'stub', namespace: 'stub-devtools' }));
    b.onLoad({ filter: /.*/, namespace: 'stub-devtools' }, () => ({ contents: 'export default {connectToDevTools(){}};', loader: 'js' }));
  },
};

// zod re-exports every locale as a namespace; only English messages are used (zod's default), so the
// other locales stay out of the bundle.
const onlyEnglishZodLocales = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'zod-locales', pluginData: args.resolveDir } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: new URL('../locales/', `file://${args.pluginData}/`).pathname,
      loader: 'js',
    }));
  },
};

// Libraries that are bundles of their own (dist/cli/<name>.cjs, each run from its own code cache):
// a run that does not use one never reads or initialises it. In the main bundle, the module that
// loads each becomes one that asks the entry's bundle loader for it on the first call.
const IMPORT_MODULE = fileURLToPath(new URL('./src/base/lib/import-module.ts', import.meta.url));
const LIBRARIES = {
  // Only the part of zod wicket uses (src/base/lib/zod-parts.ts), from zod's ES build: its CommonJS
  // build carries every locale.
  zod: { loader: /src[\\/]base[\\/]lib[\\/]zod-lib\.ts$/, exported: 'function zodLib()', entry: () => 'src/base/lib/zod-parts.ts' },
  execa: { loader: /src[\\/]base[\\/]lib[\\/]execa-lib\.ts$/, exported: 'async function execaLib()' },
  // Its CommonJS build (the ES one awaits at top level); it finds its .wasm through locateFile.
  // The MCP client, for sessions with MCP servers only.
  // JSONC, for settings files with comments and for the place of a problem in one.
  'jsonc-parser': {
    loader: /src[\\/]settings[\\/]jsonc-lib\.ts$/,
    exported: 'function jsoncLib()',
    entry: () => createRequire(import.meta.url).resolve('jsonc-parser/lib/esm/main.js'),
  },
  // YAML, for agent files' frontmatter.
  yaml: { loader: /src[\\/]settings[\\/]yaml-lib\.ts$/, exported: 'function yamlLib()' },
  // The Markdown lexer, for instruction files that hold `@` imports or HTML comments.
  marked: { loader: /src[\\/]session[\\/]memory[\\/]marked-lib\.ts$/, exported: 'function markedLib()' },
  // The settings validator made from SchemaStore's schema (scripts/settings-schema.mjs), for runs that read a settings file.
  'settings-schema': {
    loader: /src[\\/]settings[\\/]schema-lib\.ts$/,
    exported: 'function settingsSchemaLib()',
    entry: () => 'src/settings/schema/validator.generated.js',
  },
  // The language server protocol, for sessions that start a language server only.
  'lsp-protocol': { loader: /src[\\/]lsp[\\/]protocol-lib\.ts$/, exported: 'function lspProtocolLib()', entry: () => 'src/lsp/protocol-parts.ts' },
  mcp: { loader: /src[\\/]mcp[\\/]sdk-lib\.ts$/, exported: 'async function mcpSdk()', entry: () => 'src/mcp/sdk-parts.ts' },
  // The clouds' model clients, each for sessions on that provider only (src/api/providers/).
  bedrock: {
    loader: /src[\\/]api[\\/]providers[\\/]bedrock-lib\.ts$/,
    exported: 'async function bedrockLib()',
    entry: () => 'src/api/providers/bedrock-parts.ts',
  },
  vertex: { loader: /src[\\/]api[\\/]providers[\\/]vertex-lib\.ts$/, exported: 'async function vertexLib()', entry: () => 'src/api/providers/vertex-parts.ts' },
  foundry: {
    loader: /src[\\/]api[\\/]providers[\\/]foundry-lib\.ts$/,
    exported: 'async function foundryLib()',
    entry: () => 'src/api/providers/foundry-parts.ts',
  },
  'web-tree-sitter': {
    loader: /src[\\/]tools[\\/]bash[\\/]tree-sitter-lib\.ts$/,
    exported: 'function treeSitterLib()',
    entry: () => createRequire(import.meta.url).resolve('web-tree-sitter'),
  },
  // The app's Markdown (marked, marked-terminal, cli-highlight): loaded after the first frame.
  markdown: {
    loader: /src[\\/]ui[\\/]lib[\\/]markdown-lib\.ts$/,
    exported: 'async function markdownLib()',
    entry: () => 'src/ui/lib/markdown-parts.ts',
  },
};
// The loaders swapped, per bundle: one whose file moved would match nothing, and its library would land in the bundle.
const swapped = new Set();
const librariesApart = {
  name: 'libraries-apart',
  setup(b) {
    for (const [name, { loader, exported }] of Object.entries(LIBRARIES)) {
      b.onLoad({ filter: loader }, () => {
        swapped.add(name);
        return {
          contents: `import { requireBundled } from ${JSON.stringify(IMPORT_MODULE)};
          let lib;
          export ${exported} {
            return (lib ??= requireBundled(${JSON.stringify(name)}));
          }`,
          loader: 'js',
        };
      });
    }
  },
};

// cli/app-lib.ts, in the main bundle: the app's bundle asked of the entry's bundle loader, as the libraries are.
let appSwapped = false;
const appApart = {
  name: 'app-apart',
  setup(b) {
    b.onLoad({ filter: APP_BUNDLE.loader }, () => {
      appSwapped = true;
      return {
        contents: `import { requireBundled } from ${JSON.stringify(IMPORT_MODULE)};
        export async function appLib() { return requireBundled(${JSON.stringify(APP_BUNDLE.name)}).appLib(); }`,
        loader: 'js',
      };
    });
  },
};

// cli/app-lib.ts, in the app's bundle: the app imported statically (cli/ itself never imports ui/).
const appStatic = {
  name: 'app-static',
  setup(b) {
    b.onLoad({ filter: APP_BUNDLE.loader }, () => ({
      contents: `import { runApp } from ${JSON.stringify(APP_BUNDLE.app)};
      export async function appLib() { return { runApp }; }`,
      loader: 'js',
    }));
  },
};

// The tool list reaches the MCP client (agents' own servers); its schemas need no MCP SDK, and
// bundling the SDK here would make zod load lazily, in an order its modules do not survive.
const noMcpSdkAtBuild = {
  name: 'no-mcp-sdk-at-build',
  setup(b) {
    b.onLoad({ filter: LIBRARIES.mcp.loader }, () => ({
      contents: 'export async function mcpSdk() { throw new Error("no MCP SDK at build time"); }',
      loader: 'js',
    }));
  },
};

// commander requires child_process at load only to spawn executable subcommands, which wicket has
// none of: it is required when first used instead. The build fails if commander's code changes.
const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const eager = "const childProcess = require('node:child_process');";
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(eager)) throw new Error(`${args.path}: expected "${eager}"`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
// `node build.mjs --dev`: readable output, for profiling.
const dev = process.argv.includes('--dev');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: !dev,
  sourcemap: false,
  external,
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow: its ES build instead.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [stubDevtools, onlyEnglishZodLocales, builtinsOnce],
  logLevel: 'warning',
};
const define = { 'process.env.NODE_ENV': '"production"', WICKET_VERSION: JSON.stringify(pkg.version) };
// CommonJS output: import.meta.url becomes the file's own URL.
const cjs = {
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  banner: { js: 'var __wicket_import_meta_url=require("node:url").pathToFileURL(__filename).href;' },
};
const cjsDefine = { ...define, 'import.meta.url': '__wicket_import_meta_url' };

// 0. Facts computed once here instead of at every start: the built-in tools' JSON Schemas (from
//    their zod schemas) and the --help text.
const { toolSchemas, helpText } = await buildTimeFacts();

// 1. Everything but the Ink app, as one CommonJS file: the entry runs it from V8's code cache.
// The settings validator's hash names what its findings were made by (src/settings/schema-cache.ts).
const schemaHash = createHash('sha256').update(readFileSync('src/settings/schema/validator.generated.js')).digest('hex').slice(0, 16);
const sessionDefine = { ...cjsDefine, WICKET_TOOL_SCHEMAS: JSON.stringify(toolSchemas), WICKET_SETTINGS_SCHEMA_HASH: JSON.stringify(schemaHash) };
await build({
  ...common,
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir: 'dist',
  ...cjs,
  plugins: [...common.plugins, librariesApart, lazyCommanderChildProcess, appApart],
  define: sessionDefine,
});
// 1a. The same with the Ink app in it (build-app.mjs), run from a code cache of its own: the entry runs
//     it in place of the main bundle when the run is likely interactive, so print mode never reads or
//     compiles the app's code, and the app's start reads one bundle. When the guess was wrong, the main
//     bundle loads this one for the app (appApart): a second copy of the session's code, whose shared
//     state lives on globalThis (settings/safe-mode.ts, mcp/elicitation.ts).
await build({
  ...common,
  entryPoints: { [`cli/${APP_BUNDLE.name}`]: APP_BUNDLE.entry },
  outdir: 'dist',
  ...cjs,
  plugins: [
    ...common.plugins,
    librariesApart,
    lazyCommanderChildProcess,
    appStatic,
    fastStringWidth,
    fastSegmenter,
    wrapWithoutStraySpace,
    yogaWithoutTopLevelAwait,
    inkWithoutDevtools,
  ],
  define: sessionDefine,
});
if (![...segmented].some((f) => /ansi-tokenize/.test(f)))
  throw new Error("Ink's tokenizer (@alcalzone/ansi-tokenize) no longer makes an Intl.Segmenter where build-app.mjs expects it");
if (!appSwapped) throw new Error(`no module of the main bundle matched ${APP_BUNDLE.loader}: fix its path in build-app.mjs`);
const unswapped = Object.keys(LIBRARIES).filter((name) => !swapped.has(name));
if (unswapped.length) throw new Error(`no module of the main or app bundle matched the loader of ${unswapped.join(', ')}: fix its path in LIBRARIES`);
// Each bundle the entry runs from a code cache is written inside its CommonJS wrapper
// (src/cli/code-cache.ts), so V8 compiles the file's text as it is, without copying it first.
const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';
const BUNDLE_TAIL = '\n})';
function wrapBundle(url) {
  const source = `${BUNDLE_HEAD}${readFileSync(url, 'utf8')}${BUNDLE_TAIL}`;
  writeFileSync(url, source);
  return source;
}
const mainSource = wrapBundle(new URL('./dist/cli/main.cjs', import.meta.url));
const appSource = wrapBundle(new URL(`./dist/cli/${APP_BUNDLE.name}.cjs`, import.meta.url));
// A script compiled from the code cache loses its import() handler on Node 20: imports of modules
// outside the bundle go through importModule (src/base/lib/import-module.ts), whose fallback is the one
// import() allowed here.
function assertOneImport(file, source) {
  const imports = [...source.matchAll(/(?<![\w$.])import\(/g)];
  if (!dev && imports.length !== 1) {
    const near = imports.map((m) => source.slice(m.index - 60, m.index + 30)).join('\n');
    throw new Error(`${file} has ${imports.length} import() calls; only importModule's may remain:\n${near}`);
  }
}
assertOneImport('dist/cli/main.cjs', mainSource);
assertOneImport(`dist/cli/${APP_BUNDLE.name}.cjs`, appSource);
const hashOf = (source) => createHash('sha256').update(source).digest('hex').slice(0, 16);
// The code-cache loader reads bundles as latin1: that is exact only for pure ASCII. (esbuild escapes
// every non-ASCII character in code; a --dev build keeps comments, whose text does not matter.)
const assertAscii = (file, source) => {
  const at = dev ? -1 : source.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`${file} has a non-ASCII character near: ${source.slice(Math.max(0, at - 40), at + 10)}`);
  return source;
};

// 1b. The libraries kept apart, each a bundle of its own.
const bundleHashes = {
  main: hashOf(assertAscii('dist/cli/main.cjs', mainSource)),
  [APP_BUNDLE.name]: hashOf(assertAscii(`dist/cli/${APP_BUNDLE.name}.cjs`, appSource)),
};
for (const name of Object.keys(LIBRARIES)) {
  await build({
    ...common,
    entryPoints: { [`cli/${name}`]: LIBRARIES[name].entry?.() ?? fileURLToPath(import.meta.resolve(name)) },
    outdir: 'dist',
    ...cjs,
    define: cjsDefine,
    // Licence comments go to dist/cli/<name>.cjs.LEGAL.txt: some hold non-ASCII names.
    legalComments: 'external',
  });
  bundleHashes[name] = hashOf(assertAscii(`dist/cli/${name}.cjs`, wrapBundle(new URL(`./dist/cli/${name}.cjs`, import.meta.url))));
}

// 3. The tiny entry, CommonJS like bin/wicket.js: --version before anything loads, then the main bundle.
await build({
  ...common,
  entryPoints: { 'cli/entry': 'src/cli/entry.ts' },
  outdir: 'dist',
  ...cjs,
  define: { ...cjsDefine, WICKET_BUNDLE_HASHES: JSON.stringify(bundleHashes), WICKET_HELP: JSON.stringify(helpText) },
});

async function buildTimeFacts() {
  const out = await build({
    ...common,
    plugins: [...common.plugins, noMcpSdkAtBuild],
    stdin: {
      contents: [
        "export { BUILTIN_TOOLS } from './src/tools/registry.ts';",
        "export { inputJsonSchema } from './src/tools/api-schema.ts';",
        "export { buildProgram, HELP_AFTER } from './src/cli/options.ts';",
      ].join('\n'),
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    format: 'cjs',
    write: false,
    minify: false,
    define: { ...define, 'import.meta.url': '"file:///"' },
  });
  const mod = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
  const { BUILTIN_TOOLS, inputJsonSchema, buildProgram, HELP_AFTER } = mod.exports;
  const program = buildProgram(pkg.version);
  return {
    toolSchemas: Object.fromEntries(BUILTIN_TOOLS.map((t) => [t.name, inputJsonSchema(t)])),
    helpText: `${program.helpInformation()}${HELP_AFTER}\n`,
  };
}
