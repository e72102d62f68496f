// Preloaded into a measured process (NODE_OPTIONS=--import): writes its peak RSS (KiB) on exit.
// VmHWM is per process image; getrusage's maxRSS would carry the parent's peak across exec.
import { appendFileSync, readFileSync } from 'node:fs';

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
