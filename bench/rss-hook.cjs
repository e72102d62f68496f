// Preloaded into a measured process (NODE_OPTIONS=--require): writes its peak RSS (KiB) on exit.
// VmHWM is per process image; getrusage's maxRSS would carry the parent's peak across exec.
// CommonJS on purpose: an `--import` preload starts the ES module loader before the program does and
// adds tens of milliseconds to every measured start.
const { appendFileSync, readFileSync } = require('node:fs');

const file = process.env.WICKET_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'));
      appendFileSync(file, `${m ? m[1] : process.resourceUsage().maxRSS}\n`);
    } catch {
      // measuring must never change the outcome
    }
  });
}
