/**
 * Which saved session a run continues (`--continue`: the latest in this project; `--resume <id>`),
 * and under which id it goes on: the same one, appending to its file, as Claude Code does; a new
 * one with `--fork-session` (or `--session-id`), whose file then starts with the history it continues.
 */
import path from 'node:path';
import { FatalError } from '../base/errors.js';
import type { ApiMessage } from '../base/events.js';
import type { PromptMark } from '../base/prompt-marks.js';
import { latestSession, loadSession, TranscriptWriter, type SavedSession } from './transcript.js';

export interface ResumeOptions {
  continue: boolean;
  resume?: string | true;
  forkSession?: boolean;
  sessionId?: string;
}

/** The session file a run continues, or undefined for a fresh session. */
export function resumeFile(opts: ResumeOptions, sessionsDir: string): string | undefined {
  if (typeof opts.resume === 'string') return path.join(sessionsDir, `${opts.resume}.jsonl`);
  if (opts.continue || opts.resume === true) return latestSession(sessionsDir);
  return undefined;
}

/** The id the run writes under: --session-id, else the resumed session's (unless forking), else undefined (a new one). */
export function continuedSessionId(opts: ResumeOptions, file: string | undefined): string | undefined {
  if (opts.sessionId) return opts.sessionId;
  return file && !opts.forkSession ? path.basename(file, '.jsonl') : undefined;
}

/** The resumed conversation and its rewind points; `keepDeferred` (print mode) keeps a call a hook deferred, to be run now. */
export function loadResumed(file: string | undefined, opts: ResumeOptions, sessionsDir: string, keepDeferred = false): SavedSession {
  if (!file) return { messages: [], marks: [] };
  try {
    return loadSession(file, { keepDeferred });
  } catch {
    throw new FatalError('config', `no saved session ${typeof opts.resume === 'string' ? `${opts.resume} ` : ''}in ${sessionsDir}`);
  }
}

/**
 * The session's file: the resumed one, appended to; or a new one, which starts with the history the
 * run continues (a fork) and its rewind points, so that resuming it later brings all of it back.
 */
export function openTranscript(
  setup: { sessionsDir: string; resumeFile?: string; cwd: string; options: { sessionId: string } },
  history: readonly ApiMessage[],
  name?: string,
  marks: readonly PromptMark[] = [],
): TranscriptWriter {
  const file = path.join(setup.sessionsDir, `${setup.options.sessionId}.jsonl`);
  const writer = new TranscriptWriter(file, setup.options.sessionId, setup.cwd);
  if (history.length && file !== setup.resumeFile) writer.restart(history, 'fork', marks);
  if (name?.trim()) writer.name(name.trim());
  return writer;
}
