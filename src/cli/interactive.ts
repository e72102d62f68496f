/** The interactive app's entry (replaced by the Ink app). */
import type { CliOptions } from './options.js';

export async function runInteractive(_opts: CliOptions, _info: { version: string }): Promise<number> {
  process.stderr.write('wicket: the interactive app is not available yet; use -p "prompt"\n');
  return 2;
}
