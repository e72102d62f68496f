/**
 * `cleanupPeriodDays` (default 30, as in Claude Code; a value that is not a whole number of at least 1
 * keeps everything): at start-up, the transcripts not written to for
 * longer than that are removed, with what belongs to them: their folder beside them (sub-agents, large
 * tool results), their file checkpoints and their large outputs under wicket's folder. Transcripts an
 * older wicket kept in its own folder go the same way, and so do checkpoints no transcript names.
 * Their snapshots of the project go after (shadow-prune.ts, which needs git and runs apart).
 */
import { readdirSync, rmSync, stat, statSync } from 'node:fs';
import path from 'node:path';
import { fileHistoryDir, legacySessionsRoot, projectsRoot } from './paths.js';

export const DEFAULT_CLEANUP_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The retention in days from settings: the default when unset; a whole number of at least 1 as it is.
 * Any other value (0 among them) removes nothing, as in Claude Code 2.1.332: its schema wants a whole
 * number of at least 1, it skips the sweep when that setting is in error, and it keeps everything for 0.
 */
export function cleanupDays(setting: unknown): number {
  if (setting === undefined) return DEFAULT_CLEANUP_DAYS;
  return typeof setting === 'number' && Number.isInteger(setting) && setting >= 1 ? setting : Number.POSITIVE_INFINITY;
}

export interface CleanupPlaces {
  configDir: string;
  wicketHome: string;
  /** Sessions that must stay whatever their age (the one starting, the one it resumes). */
  keep?: readonly string[];
}

/** A file whose age decides, and what goes when it is older than the cutoff. */
interface Aged {
  file: string;
  remove(): void;
}

/** Every transcript and checkpoint folder that may go, with what goes with it; `removed` gets the ids of the sessions that go. */
function agedThings(places: CleanupPlaces, removed: string[]): Aged[] {
  const out: Aged[] = [];
  const dirs = [...subfolders(projectsRoot(places.configDir)), ...subfolders(legacySessionsRoot(places.wicketHome))];
  for (const dir of dirs) {
    for (const name of entries(dir)) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!name.endsWith('.jsonl') || places.keep?.includes(id)) continue;
      out.push({
        file: path.join(dir, name),
        remove() {
          remove(path.join(dir, name));
          remove(path.join(dir, id));
          remove(fileHistoryDir(places.wicketHome, id));
          remove(path.join(legacySessionsRoot(places.wicketHome), id.replace(/[^\w.-]/g, '_')));
          removed.push(id);
        },
      });
    }
  }
  const histories = path.join(places.wicketHome, 'file-history');
  for (const name of entries(histories))
    if (!places.keep?.includes(name)) out.push({ file: path.join(histories, name), remove: () => remove(path.join(histories, name)) });
  return out;
}

/** Removes what is older than `days`; returns the ids of the sessions removed. Never throws. */
export function cleanupOldSessions(places: CleanupPlaces, days: number, now = Date.now()): string[] {
  const cutoff = now - days * DAY_MS;
  const removed: string[] = [];
  for (const thing of agedThings(places, removed)) if (olderThan(thing.file, cutoff)) thing.remove();
  return removed;
}

/**
 * The same, with the ages asked on libuv's threads: a run starts it before its first request and
 * waits for it at the end, so a config folder of thousands of sessions (Claude Code's among them)
 * costs the run nothing while the model answers. Never rejects.
 */
export function cleanupOldSessionsInBackground(places: CleanupPlaces, days: number, now = Date.now()): Promise<string[]> {
  const cutoff = now - days * DAY_MS;
  const removed: string[] = [];
  const ages = agedThings(places, removed).map(
    (thing) => new Promise<void>((resolve) => stat(thing.file, (err, st) => resolve(!err && st.mtimeMs < cutoff ? thing.remove() : undefined))),
  );
  return Promise.all(ages).then(() => removed);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function subfolders(dir: string): string[] {
  return entries(dir)
    .map((n) => path.join(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isDirectory();
      } catch {
        return false;
      }
    });
}

function olderThan(file: string, cutoff: number): boolean {
  try {
    return statSync(file).mtimeMs < cutoff;
  } catch {
    return false;
  }
}

function remove(p: string): void {
  try {
    rmSync(p, { recursive: true, force: true });
  } catch {
    // what cannot be removed now is tried again at the next start
  }
}
