/**
 * Flags the Agent SDK may pass that wicket takes but cannot honour in full: each is said once on
 * stderr, so a host that relies on one knows.
 */
import type { CliOptions } from '../core/setup/options.js';

export function unhonouredFlags(opts: CliOptions): string[] {
  const out: string[] = [];
  if (opts.betas?.length) out.push(`--betas ${opts.betas.join(',')}: wicket sends its own beta headers only; these are not sent`);
  return out;
}

/** Whether the flags ask for the SDK mode: stream-json in and out, with or without -p. */
export function sdkModeWanted(opts: Pick<CliOptions, 'inputFormat' | 'outputFormat'>): boolean {
  return opts.inputFormat === 'stream-json' && opts.outputFormat === 'stream-json';
}
