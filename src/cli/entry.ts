// The tiny entry: answers --version and --help without loading anything heavy.
declare const WICKET_VERSION: string;

const argv = process.argv.slice(2);
const version = typeof WICKET_VERSION === 'string' ? WICKET_VERSION : '0.0.0-dev';

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === '-V')) {
  process.stdout.write(`${version} (wicket)\n`);
} else {
  const { main } = await import('./main.js');
  const code = await main(argv, { version });
  // Exit once output is flushed: idle keep-alive sockets and timers must not hold the process open.
  process.exitCode = code;
  const exit = () => process.exit(code);
  if (process.stdout.writableLength > 0) process.stdout.once('drain', exit);
  else setImmediate(exit);
}
