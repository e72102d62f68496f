// The tiny entry: answers --version and --help without loading anything heavy.
declare const WICKET_VERSION: string;

const argv = process.argv.slice(2);
const version = typeof WICKET_VERSION === 'string' ? WICKET_VERSION : '0.0.0-dev';

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  process.stdout.write(`${version} (wicket)\n`);
} else {
  // The HTTP parser inside Node's fetch is WebAssembly. Left to tier up, V8 recompiles it in the
  // background and the process then waits for that work at exit; a short-lived CLI gains nothing.
  (await import('node:v8')).setFlagsFromString('--liftoff-only');
  const { main } = await import('./main.js');
  const code = await main(argv, { version });
  // Exit once output is flushed: idle keep-alive sockets and timers must not hold the process open.
  process.exitCode = code;
  const exit = () => process.exit(code);
  if (process.stdout.writableLength > 0) process.stdout.once('drain', exit);
  else setImmediate(exit);
}
