// What the Ink app needs to be in a CommonJS bundle (dist/cli/app.cjs, build.mjs), which the interactive
// mode runs: yoga (Ink's layout engine, WebAssembly) and Ink's reconciler without a
// top-level await (CommonJS has none), and a string-width with a fast path.
import { fileURLToPath } from 'node:url';

/** dist/cli/app.cjs: its entry (the command line's main), the app in it, and the module that loads the app. */
export const APP_BUNDLE = {
  name: 'app',
  entry: 'src/cli/app-main.ts',
  app: fileURLToPath(new URL('./src/ui/run-app.tsx', import.meta.url)),
  loader: /src[\\/]cli[\\/]app-lib\.ts$/,
};
const FAST_WIDTH = fileURLToPath(new URL('./src/ui/lib/string-width-fast.ts', import.meta.url));
const YOGA_READY = /src[\\/]ui[\\/]lib[\\/]yoga-ready\.ts$/;
const YOGA_BINARY = /node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
const YOGA_INDEX = /node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/;

// Every string-width of the app (Ink's, wrap-ansi's, cli-truncate's, ours) is the one with a fast
// path for the characters the app draws (src/ui/lib/string-width-fast.ts).
export const fastStringWidth = {
  name: 'fast-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, (args) => (args.importer === FAST_WIDTH ? undefined : { path: FAST_WIDTH }));
  },
};

// yoga-layout's index awaits its WebAssembly at the top level. Here it starts loading when the
// module runs and `yogaReady` (src/ui/lib/yoga-ready.ts) resolves once Yoga is set; the app awaits
// it before its first render. Its Emscripten loader fetches its own data: URL when fetch exists,
// which loads Node's whole fetch implementation: fetch is hidden while it starts, and it decodes
// the data: URL itself.
export const yogaWithoutTopLevelAwait = {
  name: 'yoga-without-top-level-await',
  setup(b) {
    b.onLoad({ filter: YOGA_INDEX }, (args) => {
      const dir = args.path.replace(/[\\/][^\\/]*$/, '');
      return {
        resolveDir: dir,
        loader: 'js',
        contents: `import loadYoga from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
let Yoga;
const hidden = globalThis.fetch;
let loading;
try {
  globalThis.fetch = undefined;
  loading = loadYoga();
} finally {
  globalThis.fetch = hidden;
}
export const yogaReady = loading.then((m) => { Yoga = wrapAssembly(m); });
export { Yoga as default };
export * from './generated/YGEnums.js';`,
      };
    });
    // Its base64 is decoded with atob and a loop over every byte: Buffer decodes it natively.
    b.onLoad({ filter: YOGA_BINARY }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const slow = 'var b=xa(a.slice(37)),c=new Uint8Array(b.length);for(a=0;a<b.length;++a)c[a]=b.charCodeAt(a);var d=c';
      if (!source.includes(slow)) throw new Error(`${args.path}: expected "${slow}"`);
      return { contents: source.replace(slow, "var d=new Uint8Array(Buffer.from(a.slice(37),'base64'))"), loader: 'js' };
    });
    b.onLoad({ filter: YOGA_READY }, () => ({
      loader: 'js',
      contents: "export { yogaReady } from 'yoga-layout';",
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
    }));
  },
};

// Ink's reconciler awaits at the top level only under DEV=true (React DevTools, its package.json):
// those branches are left out, as the DevTools stub already leaves DevTools out. The build fails
// if Ink's code changes.
const INK_RECONCILER = /node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/;
export const inkWithoutDevtools = {
  name: 'ink-without-devtools',
  setup(b) {
    b.onLoad({ filter: INK_RECONCILER }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let source = await readFile(args.path, 'utf8');
      for (const [from, to] of [
        ["await import('./devtools.js');", ';'],
        ['? await loadPackageJson()', '? { name: undefined, version: undefined }'],
      ]) {
        if (!source.includes(from)) throw new Error(`${args.path}: expected "${from}"`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

// Ink's text libraries (its tokenizer, slice-ansi, string-width) each make an Intl.Segmenter when
// they load; the first one loads ICU's segmentation data. Each gets one that makes the real one only
// for text that needs it (src/ui/lib/fast-segmenter.ts). The build fails if Ink's tokenizer was not patched.
const FAST_SEGMENTER = fileURLToPath(new URL('./src/ui/lib/fast-segmenter.ts', import.meta.url));
const SEGMENTING = /node_modules[\\/](?:@alcalzone[\\/]ansi-tokenize|slice-ansi|string-width)[\\/].*\.js$/;
export const segmented = new Set();
export const fastSegmenter = {
  name: 'fast-segmenter',
  setup(b) {
    b.onLoad({ filter: SEGMENTING }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('new Intl.Segmenter(')) return undefined;
      segmented.add(args.path);
      const patched = source.replaceAll('new Intl.Segmenter(', '__wicketSegmenter(');
      return { contents: `import { graphemeSegmenter as __wicketSegmenter } from ${JSON.stringify(FAST_SEGMENTER)};\n${patched}`, loader: 'js' };
    });
  },
};

// Ink wraps text with wrap-ansi without trimming (to keep indentation); when a word ends exactly at
// the edge, wrap-ansi then starts the next row with the space between the words (" project…" in a
// dialog). That space is left out; any other space stays as written. The build fails if wrap-ansi changes.
const WRAP_ANSI = /node_modules[\\/]wrap-ansi[\\/]index\.js$/;
export const wrapWithoutStraySpace = {
  name: 'wrap-without-stray-space',
  setup(b) {
    b.onLoad({ filter: WRAP_ANSI }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      let source = await readFile(args.path, 'utf8');
      for (const [from, to] of [
        ['\t\tif (index !== 0) {\n', '\t\tif (index !== 0) {\n\t\t\tlet continuedRow = false;\n'],
        [
          "\t\t\t\trows.push('');\n\t\t\t\trowLength = 0;\n\t\t\t}\n",
          "\t\t\t\trows.push('');\n\t\t\t\trowLength = 0;\n\t\t\t\tcontinuedRow = true;\n\t\t\t}\n",
        ],
        ['if (rowLength > 0 || options.trim === false) {', 'if (rowLength > 0 || (options.trim === false && !continuedRow)) {'],
      ]) {
        if (!source.includes(from)) throw new Error(`${args.path}: expected ${JSON.stringify(from)}`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
