/**
 * `wicket rewind`: the rewind of the app's /rewind for print-mode sessions and scripts. Lists the
 * prompts of a session of this project (`--list`), shows what going back to before prompt N would
 * change (files changed by any tool, with the diff), and with `--yes` restores the code, the
 * conversation (the next `--continue`/`--resume` goes on from before that prompt) or both.
 */
import { homedir } from 'node:os';
import { Command, CommanderError } from 'commander';
import { errorMessage } from '../base/errors.js';
import { rewindTo } from '../base/prompt-marks.js';
import { VERSION } from '../base/version.js';
import { savedRewinder } from '../core/snapshots/saved-rewind.js';
import type { CodePlan, CodeRestoreReport, Rewinder } from '../core/snapshots/rewinder.js';
import { loadResumed } from '../session/resume.js';
import { findSession, latestSessionFile } from '../session/session-list.js';
import { TranscriptWriter } from '../session/transcript.js';
import { userConfigDir, wicketHomeDir } from '../settings/paths.js';
import { describePlan, describeReport } from './rewind-text.js';

interface RewindArgs {
  session?: string;
  to?: string;
  code?: boolean;
  conversation?: boolean;
  both?: boolean;
  list?: boolean;
  yes?: boolean;
  force?: boolean;
}

const PATCH_LINES = 400;

function program(): Command {
  return new Command('wicket rewind')
    .description('Go back to before a prompt of a session: its code (whatever tool changed it), its conversation, or both.')
    .option('--session <id>', 'the session (id, name or .jsonl file; default: the latest of this folder)')
    .option('--to <n>', 'the prompt to go back to before (its number in --list)')
    .option('--code', 'restore the code only')
    .option('--conversation', 'rewind the conversation only')
    .option('--both', 'restore the code and rewind the conversation (the default)')
    .option('--list', 'list the prompts and what going back to each would change')
    .option('--yes', 'do it (without it, only show what would change)')
    .option('--force', "restore even though the project's git HEAD or branch moved since")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined, writeOut: (s) => process.stdout.write(s) });
}

export async function runRewindCommand(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let args: RewindArgs;
  try {
    args = program().parse(argv, { from: 'user' }).opts<RewindArgs>();
  } catch (err) {
    if (err instanceof CommanderError && err.exitCode === 0) return 0;
    process.stderr.write(`wicket rewind: ${errorMessage(err).replace(/^error: /, '')}\nRun wicket rewind --help for the flags.\n`);
    return 2;
  }
  const home = env.HOME ?? homedir();
  const cwd = process.cwd();
  const places = { configDir: userConfigDir(home, env.CLAUDE_CONFIG_DIR || undefined), wicketHome: wicketHomeDir(home, env), cwd };
  const file = args.session ? findSession(args.session, places) : latestSessionFile(places);
  if (!file) return fail(args.session ? `no session "${args.session}" was found` : 'this folder has no saved session');
  let saved: ReturnType<typeof loadResumed>;
  try {
    saved = loadResumed(file);
  } catch (err) {
    return fail(errorMessage(err));
  }
  const sessionId = file.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, '');
  const rewinder = savedRewinder({ wicketHome: places.wicketHome, root: cwd, home, sessionId, env });
  if (args.list || args.to === undefined) return list(saved.marks, rewinder, sessionId);
  const n = Number(args.to);
  const mark = Number.isInteger(n) ? saved.marks[n - 1] : undefined;
  if (!mark) return fail(`--to ${args.to}: the session has ${saved.marks.length} prompt${saved.marks.length === 1 ? '' : 's'} (see --list)`);
  const code = Boolean(args.code || args.both || !args.conversation);
  const conversation = Boolean(args.conversation || args.both || !args.code);
  if (!args.yes) return preview(rewinder, mark, { code, conversation });
  let status = 0;
  if (code) {
    if (mark.checkpoint === undefined) return fail('no checkpoint was taken with that prompt: its code cannot be restored');
    const report = await rewinder.restore(mark.checkpoint, { force: Boolean(args.force) });
    process.stdout.write(describeReport(report, mark.text, cwd));
    if (report.refused) return 1;
    if (report.failed.length) status = 1;
    recordUndo(file, sessionId, cwd, saved, report, mark.text);
  }
  if (conversation) {
    if (mark.at === undefined) {
      process.stdout.write('The conversation cannot go back past the compaction since; it was left as it is.\n');
      return status;
    }
    const writer = openWriter(file, sessionId, cwd, saved);
    const messages = saved.messages;
    rewindTo(messages, mark);
    writer.restart(messages, 'rewind', saved.marks.slice(0, n - 1));
    process.stdout.write(`Rewound the conversation to before prompt ${n}: the next --continue goes on from there.\n`);
  }
  return status;
}

async function list(marks: ReturnType<typeof loadResumed>['marks'], rewinder: Rewinder, sessionId: string): Promise<number> {
  process.stdout.write(`Session ${sessionId}: ${marks.length} prompt${marks.length === 1 ? '' : 's'}\n`);
  for (const [i, m] of marks.entries()) {
    const plan: CodePlan = m.checkpoint === undefined ? { ok: false, reason: 'no checkpoint' } : await rewinder.plan(m.checkpoint);
    const what = !plan.ok
      ? `code: ${plan.reason}`
      : plan.files.length
        ? `${plan.files.length} file${plan.files.length === 1 ? '' : 's'} would change`
        : 'no code changes';
    const text = m.text.trim().split('\n')[0]!.slice(0, 70);
    process.stdout.write(`${String(i + 1).padStart(3)}. ${JSON.stringify(text)} · ${what}${m.at === undefined ? ' · code only' : ''}\n`);
  }
  return 0;
}

async function preview(
  rewinder: Rewinder,
  mark: ReturnType<typeof loadResumed>['marks'][number],
  what: { code: boolean; conversation: boolean },
): Promise<number> {
  if (what.code) {
    if (mark.checkpoint === undefined) return fail('no checkpoint was taken with that prompt: its code cannot be restored');
    const plan = await rewinder.plan(mark.checkpoint);
    process.stdout.write(describePlan(plan, process.cwd()));
    const patch = plan.ok ? await rewinder.patch(mark.checkpoint).catch(() => '') : '';
    const lines = patch.split('\n');
    if (patch)
      process.stdout.write(`\n${lines.slice(0, PATCH_LINES).join('\n')}\n${lines.length > PATCH_LINES ? `… ${lines.length - PATCH_LINES} more lines\n` : ''}`);
  }
  if (what.conversation)
    process.stdout.write(
      mark.at === undefined ? 'The conversation cannot go back past the compaction since.\n' : 'The conversation would go back to before this prompt.\n',
    );
  process.stdout.write('Nothing was changed: run again with --yes to do it.\n');
  return 0;
}

function openWriter(file: string, sessionId: string, cwd: string, saved: ReturnType<typeof loadResumed>): TranscriptWriter {
  const meta = { sessionId, cwd: () => cwd, version: VERSION, model: process.env.ANTHROPIC_MODEL ?? '', entrypoint: 'sdk-cli' as const };
  return new TranscriptWriter(file, meta, { leaf: saved.leaf, chain: saved.chain });
}

/** The files as they were before the restore become a rewind point of the session: the restore can be undone. */
function recordUndo(file: string, sessionId: string, cwd: string, saved: ReturnType<typeof loadResumed>, report: CodeRestoreReport, text: string): void {
  if (report.undo === undefined || !(report.restored.length + report.deleted.length)) return;
  openWriter(file, sessionId, cwd, saved).checkpoint(`(before the rewind to before "${text.trim().split('\n')[0]!.slice(0, 60)}")`, report.undo, true);
  const n = loadResumed(file).marks.findIndex((m) => m.checkpoint === report.undo) + 1;
  if (n > 0) process.stdout.write(`To undo this restore: wicket rewind --session ${sessionId} --to ${n} --code --yes\n`);
}

function fail(message: string): number {
  process.stderr.write(`wicket rewind: ${message}\n`);
  return 1;
}
