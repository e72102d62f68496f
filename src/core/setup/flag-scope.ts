/**
 * Flags that only mean something in some modes: the stream-json ones outside stream-json, the
 * print-mode ones in the app. Given where they have no effect, each one is named in a warning
 * (Claude Code stops at some of them, passes over others in silence; wicket says so and goes on).
 */
import type { CliOptions } from './options.js';

/** Where a session runs: the app, print mode, or the Agent SDK's stream-json in and out. */
export type RunMode = 'interactive' | 'print' | 'sdk';

type ScopedFlag = { flag: string; set: (o: CliOptions) => boolean };

/** Flags that act only on print mode's stream-json output. */
const STREAM_JSON_FLAGS: ScopedFlag[] = [
  { flag: '--include-partial-messages', set: (o) => o.includePartialMessages },
  { flag: '--include-hook-events', set: (o) => o.includeHookEvents },
  { flag: '--include-gate-traces', set: (o) => Boolean(o.includeGateTraces) },
];

/** Flags that act only on a run nobody watches: print mode and the SDK's. */
const PRINT_FLAGS: ScopedFlag[] = [
  { flag: '--max-budget-usd', set: (o) => o.maxBudgetUsd !== undefined },
  { flag: '--json-schema', set: (o) => o.jsonSchema !== undefined },
  { flag: '--permission-prompt-tool', set: (o) => o.permissionPromptTool !== undefined },
  { flag: '--output-format', set: (o) => o.outputFormat !== 'text' },
];

const ignored = (flag: string, where: string) => `${flag} is not supported ${where}: it has no effect`;

/** One warning for each flag given that has no effect in this mode. */
export function flagScopeNotes(opts: CliOptions, mode: RunMode): string[] {
  if (mode === 'sdk') return [];
  const notes: string[] = [];
  if (mode === 'interactive') {
    for (const f of [...PRINT_FLAGS, ...STREAM_JSON_FLAGS]) if (f.set(opts)) notes.push(ignored(f.flag, 'in the interactive app (only with --print)'));
  } else if (opts.outputFormat !== 'stream-json') {
    for (const f of STREAM_JSON_FLAGS) if (f.set(opts)) notes.push(ignored(f.flag, 'without --output-format stream-json'));
  }
  if (opts.replayUserMessages) notes.push(ignored('--replay-user-messages', 'without --input-format stream-json and --output-format stream-json'));
  return notes;
}
