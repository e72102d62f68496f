// Node's built-in modules, imported once per bundle. esbuild turns each `import x from 'node:…'` in
// each ES module into a require() of its own wrapped by __toESM, which copies every export of the
// built-in onto a new object: about seventy requires and copies at every start. Here every import
// of a built-in resolves to one ES module per built-in that requires it once and re-exports it.
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set([
  'default',
  'delete',
  'new',
  'function',
  'class',
  'var',
  'let',
  'const',
  'import',
  'export',
  'in',
  'of',
  'do',
  'if',
  'for',
  'while',
  'with',
  'return',
  'switch',
  'case',
  'break',
  'continue',
  'throw',
  'try',
  'catch',
  'finally',
  'typeof',
  'instanceof',
  'void',
  'this',
  'super',
  'null',
  'true',
  'false',
  'enum',
  'await',
  'yield',
  'debugger',
  'extends',
  'static',
  'implements',
  'interface',
  'package',
  'private',
  'protected',
  'public',
]);

function namedExports(id) {
  return Object.keys(require(id)).filter((k) => IDENTIFIER.test(k) && !RESERVED.has(k));
}

export const builtinsOnce = {
  name: 'builtins-once',
  setup(b) {
    const names = new Set(builtinModules);
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      if (args.kind !== 'import-statement') return undefined;
      const id = args.path.replace(/^node:/, '');
      if (!names.has(id)) return undefined;
      return { path: `node:${id}`, namespace: 'builtin-once' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin-once' }, (args) => {
      // Each name is read once, when the importing module starts, as Node's own ES module facade does;
      // names no module imports are dropped, so a lazy one (fs.promises) stays unread.
      const named = namedExports(args.path).map((k) => `export const ${k} = /* @__PURE__ */ (() => m.${k})();`);
      return {
        contents: [`const m = require(${JSON.stringify(args.path)});`, 'export default m;', ...named].join('\n'),
        loader: 'js',
      };
    });
  },
};
