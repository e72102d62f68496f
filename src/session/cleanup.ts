/**
 * `cleanupPeriodDays` (default 30, as in Claude Code): at start-up, the transcripts not written to for
 * longer than that are removed, with what belongs to them: their folder beside them (sub-agents, large
 * tool results), their file checkpoints and their large outputs under wicket's folder. Transcripts an
 * older wicket kept in its own folder go the same way, and so do checkpoints no transcript names.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileHistoryDir, legacySessionsRoot, projectsRoot } from './paths.js';

export const DEFAULT_CLEANUP_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The retention in days from settings: a number of at least 1, else the default. */
export function cleanupDays(setting: unknown): number {
  return typeof setting === 'number' && Number.isFinite(setting) && setting >= 1 ? setting : DEFAULT_CLEANUP_DAYS;
}

export interface CleanupPlaces {
  configDir: string;
  wicketHome: string;
  /** Sessions that must stay whatever their age (the one starting, the one it resumes). */
  keep?: readonly string[];
}

/** Removes what is older than `days`; returns the ids of the sessions removed. Never throws. */
export function cleanupOldSessions(places: CleanupPlaces, days: number, now = Date.now()): string[] {
  const cutoff = now - days * DAY_MS;
  const removed: string[] = [];
  const dirs = [...subfolders(projectsRoot(places.configDir)), ...subfolders(legacySessionsRoot(places.wicketHome))];
  for (const dir of dirs) {
    for (const name of entries(dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const id = name.slice(0, -'.jsonl'.length);
      if (places.keep?.includes(id) || !olderThan(path.join(dir, name), cutoff)) continue;
      remove(path.join(dir, name));
      remove(path.join(dir, id));
      remove(fileHistoryDir(places.wicketHome, id));
      remove(path.join(legacySessionsRoot(places.wicketHome), id.replace(/[^\w.-]/g, '_')));
      removed.push(id);
    }
  }
  const histories = path.join(places.wicketHome, 'file-history');
  for (const name of entries(histories)) if (!places.keep?.includes(name) && olderThan(path.join(histories, name), cutoff)) remove(path.join(histories, name));
  return removed;
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
