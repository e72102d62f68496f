// The tiny entry (CommonJS, so no ES module loader starts unless something needs one): answers
// --version and --help before anything heavy loads (the help text is rendered at build time),
// then runs the main bundle from V8's code cache (code-cache.ts).
import { adoptExtraCA } from '../api/extra-ca.js';
import { startPreconnect } from '../api/preconnect.js';
import { chooseProvider } from '../api/providers/choose.js';
import { startGitStatus } from '../base/git-status.js';
import { installBundleLoader, installImporter, loadedOnDemand } from '../base/lib/import-module.js';
import { VERSION as version } from '../base/version.js';

import { StdoutWriter } from './stdout.js';

import type { LoadedBundle } from './code-cache.js';
import type { MainInfo } from './main.js';

declare const WICKET_BUNDLE_HASHES: Record<string, string>;
declare const WICKET_HELP: string | undefined;

/** Node's own modules that every run past --version and --help loads (the API client needs http). */
const EVERY_RUN_BUILTINS = ['node:http', 'node:tty', 'node:os', 'node:vm', 'node:module'] as const;

const argv = process.argv.slice(2);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  new StdoutWriter().write(`${version} (wicket)\n`);
} else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h') && typeof WICKET_HELP === 'string') {
  new StdoutWriter().write(WICKET_HELP);
} else {
  void run();
}

async function run(): Promise<void> {
  const caWarning = adoptExtraCA(); // before any connection, and before anything starts a process
  if (caWarning) process.stderr.write(`${caWarning}\n`);
  // WebAssembly (the Bash parser, and the HTTP parser inside Node's fetch) left to tier up is
  // recompiled in the background, and the process then waits for that work at exit: over a second
  // after one Bash call. Changing a V8 flag, though, makes V8 reject the code cache of every Node
  // module loaded afterwards, so the modules every run needs are loaded first.
  for (const m of EVERY_RUN_BUILTINS) process.getBuiltinModule(m);
  // The handshake with the API overlaps loading the code (`wicket config` and `wicket mcp` never talk to it,
  // nor does a session on a cloud provider).
  if (argv[0] !== 'config' && argv[0] !== 'mcp' && chooseProvider(process.env).kind === 'firstParty') startPreconnect(process.env.ANTHROPIC_BASE_URL);
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--liftoff-only');
  // The young generation stays at its first size instead of growing as the code's start-up objects
  // survive: every page the heap touches first costs a page fault, and those, not the collections,
  // are what a larger young generation costs a short run (the app lets it grow after its first frame).
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  // git runs on another core while the code loads; the system prompt needs its answer.
  const git = startGitStatus(process.cwd());
  // Relative specifiers resolve from here (dist/cli/), beside the main bundle.
  installImporter((specifier) => import(specifier));
  const { loadBundle } = await import('./code-cache.js');
  const path = process.getBuiltinModule('node:path');
  const libraries: LoadedBundle[] = [];
  // The app and print mode compile different code: each keeps a cache of its own. A run likely to
  // open the app runs the bundle that holds it (app.cjs: main and the app), the others main.cjs.
  const flavor = likelyInteractive(argv) ? 'app' : undefined;
  const mainName = flavor === 'app' ? 'app' : 'main';
  installBundleLoader((name) => {
    const lib = loadBundle(path.join(__dirname, `${name}.cjs`), WICKET_BUNDLE_HASHES[name] ?? 'none', flavor);
    libraries.push(lib);
    return lib.exports;
  });
  const bundle = loadBundle(path.join(__dirname, `${mainName}.cjs`), WICKET_BUNDLE_HASHES[mainName] ?? 'none', flavor);
  // The interactive app changes V8's flags after its first frame, and a cache made under other flags
  // is rejected: it saves the caches of the code loaded so far (its bundle, libraries) before it does
  // (saveCodeCache). The libraries it loads later (Markdown) load under the new flags at every start,
  // so their caches, written at the end, hold.
  let savedLibraries = 0;
  const saveLibraries = () => {
    for (const lib of libraries.slice(savedLibraries)) lib.saveCache();
    savedLibraries = libraries.length;
  };
  const saveCodeCache = () => {
    bundle.saveCache(loadedOnDemand());
    saveLibraries();
  };
  const info: MainInfo = { version, git, saveCodeCache };
  const main = bundle.exports.main as (argv: string[], info: MainInfo) => Promise<number>;
  const code = await main(argv, info);
  if (!info.interactive) bundle.saveCache(loadedOnDemand());
  saveLibraries();
  // Exit once output is flushed: idle keep-alive sockets and timers must not hold the process open.
  process.exitCode = code;
  const exit = () => process.exit(code);
  const out = info.flushed ? undefined : process.stdout;
  if (out && out.writableLength > 0 && !out.destroyed && !out.errored) {
    out.once('drain', exit);
    out.once('error', exit); // the reader went away: nothing left to wait for
  } else setImmediate(exit);
}

/** Whether the run is likely to open the app (a guess from argv and stdin; a wrong guess costs only a cache miss). */
function likelyInteractive(args: readonly string[]): boolean {
  if (['config', 'mcp', 'plugin', 'trust'].includes(args[0] ?? '')) return false;
  if (args.some((a) => a === '-p' || a === '--print' || a.startsWith('--output-format') || a.startsWith('--input-format'))) return false;
  return process.getBuiltinModule('node:tty').isatty(0);
}
