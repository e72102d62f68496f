// Preloaded into a measured process (NODE_OPTIONS=--import): writes its peak RSS (KiB) on exit.
import { appendFileSync } from 'node:fs';

const file = process.env.WICKET_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      appendFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // measuring must never change the outcome
    }
  });
}
