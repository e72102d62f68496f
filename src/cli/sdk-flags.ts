/** Whether a command line asks for the Agent SDK's mode. */
import type { CliOptions } from '../core/setup/options.js';

/** Whether the flags ask for the SDK mode: stream-json in and out, with or without -p. */
export function sdkModeWanted(opts: Pick<CliOptions, 'inputFormat' | 'outputFormat'>): boolean {
  return opts.inputFormat === 'stream-json' && opts.outputFormat === 'stream-json';
}
