/**
 * Instruction files given as the conversation goes (session/memory/): when the model reads, edits
 * or writes a file, or the person @-mentions one, the subfolder CLAUDE.md files and the rules whose
 * `paths:` match it come after the tool results, each once; InstructionsLoaded hooks hear of each,
 * with its load reason. After a compaction the start's files are given again (load reason `compact`)
 * and the others come again on their next touch.
 */
import { statSync } from 'node:fs';
import { resolveToolPath } from '../base/paths.js';
import type { ApiMessage, ContentBlock } from '../base/events.js';
import type { CallOutcome, ToolCall } from '../base/tool.js';
import type { LoadedInstructions } from '../hooks/types.js';
import { MANAGED_SETTINGS_PATH } from '../session/memory/discover.js';
import { type InstructionFile, type LoadReason, loadReasonOf } from '../session/memory/types.js';
import { filesShownInOutput } from '../tools/bash/shown-files.js';
import type { AgentOptions } from './agent-options.js';

/** The tools whose call touches a file, and the input field that names it. */
const TOUCHING: Record<string, string> = { Read: 'file_path', Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };

type Opts = Pick<AgentOptions, 'instructions' | 'hooks' | 'state' | 'homeDir' | 'signal'>;

/** The files that successful calls touched, absolute, in call order. */
export function touchedFiles(calls: ReadonlyArray<{ name: string; input: unknown; failed: boolean }>, cwd: string, home: string): string[] {
  const out: string[] = [];
  for (const c of calls) {
    const field = TOUCHING[c.name];
    const value = field && !c.failed && c.input && typeof c.input === 'object' ? (c.input as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && value) out.push(resolveToolPath(value, cwd, home));
  }
  return out;
}

/**
 * The reminders the finished calls' touches bring, for after their tool results: the files the file
 * tools named, and those a Bash command showed the model (tools/bash/shown-files.ts, as Claude Code
 * counts them); a Read brings its folders' AGENTS.md files too.
 */
export function instructionsAfterCalls(results: ReadonlyArray<{ call: ToolCall; outcome: CallOutcome }>, opts: Opts): Promise<ContentBlock[]> {
  if (!opts.instructions) return Promise.resolve([]);
  const files: string[] = [];
  const reads: string[] = [];
  for (const { call, outcome } of results) {
    const failed = Boolean(outcome.result.isError || outcome.denied || outcome.failed);
    const touched =
      call.name === 'Bash'
        ? bashShown(call.input, outcome, failed, opts.state.cwd)
        : touchedFiles([{ name: call.name, input: call.input, failed: failed && !readOfNothing(call, outcome, opts) }], opts.state.cwd, opts.homeDir);
    files.push(...touched.filter((f) => !files.includes(f)));
    if (call.name === 'Read' && !failed) reads.push(...touched);
  }
  return instructionsForTouches(files, opts, reads);
}

/**
 * A Read refused only because nothing is there to read (no such file, or a folder): as in Claude
 * Code, it still touches the path, so the model that looks for a file in a folder gets that folder's
 * instruction files. Not one a deny rule covers, nor one refused for another reason.
 */
function readOfNothing(call: ToolCall, outcome: CallOutcome, opts: Opts): boolean {
  if (call.name !== 'Read' || outcome.denied || !opts.instructions) return false;
  const refused = outcome.trace.find((g) => g.verdict !== 'passed');
  if (refused?.gate !== 'validate' || refused.verdict !== 'refused') return false;
  const value = call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>).file_path : undefined;
  if (typeof value !== 'string' || !value) return false;
  const file = resolveToolPath(value, opts.state.cwd, opts.homeDir);
  if (opts.instructions.session.options.deniedBy(file)) return false;
  const stat = statSync(file, { throwIfNoEntry: false });
  return !stat || stat.isDirectory();
}

/** The files a finished Bash command showed the model; none for a failed or background one. */
function bashShown(input: unknown, outcome: CallOutcome, failed: boolean, cwd: string): string[] {
  const i = input && typeof input === 'object' ? (input as { command?: unknown; run_in_background?: unknown }) : {};
  if (failed || typeof i.command !== 'string' || i.run_in_background === true) return [];
  const content = outcome.result.content;
  const text = typeof content === 'string' ? content : content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  const exitedZero = !/(?:^|\n)Exit code [^\n]*$/.test(text);
  const cut = text.includes('[\u2026 output truncated:');
  return filesShownInOutput(i.command, cwd, exitedZero, cut ? undefined : text);
}

/** A conversation that goes on: the reminders its messages already hold count as given. */
export function rememberGiven(messages: readonly ApiMessage[], opts: Pick<Opts, 'instructions'>): void {
  if (!opts.instructions) return;
  const texts = messages.flatMap((m) =>
    m.role === 'user' && typeof m.content !== 'string' ? m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [],
  );
  opts.instructions.remember(texts);
}

/**
 * The reminders that touching `files` brings (text blocks for after the tool results); hooks hear of
 * each file. `reads`: those of them that were read (a Read call, an @-mention), which bring their
 * folders' AGENTS.md files too; `via`: a tool call or an @-mention (the AGENTS.md files' words differ).
 */
export async function instructionsForTouches(
  files: readonly string[],
  opts: Opts,
  reads: readonly string[] = files,
  via: 'tool' | 'mention' = 'tool',
): Promise<ContentBlock[]> {
  if (!opts.instructions || !files.length) return [];
  const touched = opts.instructions.touched(files, (p) => opts.state.readState.get(p) !== undefined, reads, via);
  const records = touched.given.flatMap(({ file, trigger }) => hookRecord(file, 'nested_traversal', trigger));
  if (records.length) await opts.hooks.instructionsLoaded?.(() => records, opts.signal).catch(() => undefined);
  return touched.blocks.map((text) => ({ type: 'text' as const, text }));
}

/** After a compaction: the start's files count as given again, and hooks hear of them with reason `compact`. */
export async function instructionsAfterCompaction(opts: Opts): Promise<void> {
  if (!opts.instructions) return;
  opts.instructions.startOver();
  const records = opts.instructions.startFiles().flatMap((f) => hookRecord(f, 'compact'));
  if (records.length) await opts.hooks.instructionsLoaded?.(() => records, opts.signal).catch(() => undefined);
}

/** How a hook hears of a file (none for auto memory and the managed settings' text, as in Claude Code). */
export function hookRecord(file: InstructionFile, eager: LoadReason, trigger?: string): LoadedInstructions[] {
  if (file.type === 'AutoMem' || file.path === MANAGED_SETTINGS_PATH) return [];
  return [
    {
      filePath: file.path,
      memoryType: file.type,
      loadReason: loadReasonOf(file, eager),
      ...(file.globs ? { globs: file.globs } : {}),
      ...(trigger ? { triggerFilePath: trigger } : {}),
      ...(file.parent ? { parentFilePath: file.parent } : {}),
    },
  ];
}
