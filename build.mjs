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
  plugins: [stubDevtools],
  define: { 'process.env.NODE_ENV': '"production"', WICKET_VERSION: JSON.stringify(pkg.version) },
  banner: { js: "import{createRequire as __wcr}from'node:module';const require=__wcr(import.meta.url);" },
  logLevel: 'warning',
});
