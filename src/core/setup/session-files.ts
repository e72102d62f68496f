/**
 * The session's files, the same in print mode and in the app: its transcript (where, and what each
 * record says of the session), the notes a resumed session starts with, and the removal of sessions
 * older than `cleanupPeriodDays`.
 */
import path from 'node:path';
import { VERSION } from '../../base/version.js';
import { removeStaleGitStatusFiles } from '../../base/git-status.js';
import { cleanupDays, cleanupOldSessions, cleanupOldSessionsInBackground } from '../../session/cleanup.js';
import { currentBranch } from '../../session/paths.js';
import { pruneSnapshots } from '../../session/shadow-prune.js';
import { openTranscript } from '../../session/resume.js';
import { resumeNotes } from '../../session/resume-notes.js';
import type { SavedSession } from '../../session/transcript-read.js';
import type { TranscriptWriter } from '../../session/transcript.js';
import type { Setup } from './session-setup.js';

/** The transcript the session writes: `cli` marks the app's sessions, `sdk-cli` print mode's, as Claude Code does. */
export function sessionTranscript(setup: Setup, saved: SavedSession, entrypoint: 'cli' | 'sdk-cli', name?: string): TranscriptWriter {
  const state = setup.options.state;
  const branch = currentBranch(setup.cwd);
  return openTranscript(
    setup,
    { cwd: () => state.cwd, version: VERSION, model: setup.options.model, entrypoint, ...(branch ? { gitBranch: branch } : {}) },
    saved,
    name,
  );
}

/** What the person is told before the first prompt of a resumed session (another folder, files changed since). */
export function resumedSessionNotes(setup: Setup, saved: SavedSession): string[] {
  return setup.resumeFile ? resumeNotes(saved, setup.cwd) : [];
}

/** Removes the sessions older than `cleanupPeriodDays`, keeping this one and the one it resumes. */
export function cleanupSessions(setup: Setup): void {
  const c = cleanupOf(setup);
  afterCleanup(c, cleanupOldSessions(c, c.days));
}

/** The same, started before a run's first request and awaited at its end (cleanupOldSessionsInBackground). Never rejects. */
export async function cleanupSessionsDuringRun(setup: Setup): Promise<void> {
  const c = cleanupOf(setup);
  afterCleanup(c, await cleanupOldSessionsInBackground(c, c.days));
}

function cleanupOf(setup: Setup): { configDir: string; wicketHome: string; keep: string[]; days: number } {
  const keep = [setup.options.sessionId, ...(setup.resumeFile ? [path.basename(setup.resumeFile, '.jsonl')] : [])];
  return { configDir: setup.places.configDir, wicketHome: setup.places.wicketHome, keep, days: cleanupDays(setup.loaded.merged.cleanupPeriodDays) };
}

function afterCleanup(c: { wicketHome: string; keep: string[]; days: number }, removed: string[]): void {
  // The project snapshots go with their sessions, and each project's stays under its size cap (session/shadow-prune.ts).
  void pruneSnapshots(c.wicketHome, { removed, keep: c.keep, cutoffMs: Date.now() - c.days * DAY_MS }).catch(() => undefined);
  removeStaleGitStatusFiles(path.join(c.wicketHome, 'cache'));
}

const DAY_MS = 24 * 60 * 60 * 1000;
