// Bundles src/ into dist/ with esbuild. A tiny entry answers --version/--help before anything heavy
// loads; code splitting keeps Ink and React out of print mode.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = [
  '@vscode/ripgrep',
  'pdf-parse',
  'web-tree-sitter',
  'tree-sitter-bash',
  '@napi-rs/canvas',
  'pdfjs-dist',
  // CommonJS that reads __filename: loaded from node_modules, not bundled.
  'write-file-atomic',
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

rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { 'cli/entry': 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: false,
  external,
  plugins: [stubDevtools, onlyEnglishZodLocales],
  define: { 'process.env.NODE_ENV': '"production"', WICKET_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
  logLevel: 'warning',
});
