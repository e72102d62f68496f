/**
 * Prompt history, one file per project under the wicket home: `history/<project>.jsonl`, one JSON
 * string per line, newest last. Reading or writing it never stops the app.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectSlug } from '../session/paths.js';

const MAX_ENTRIES = 500;
const MAX_ENTRY_CHARS = 20_000;

export function historyFile(wicketHome: string, projectDir: string): string {
  return path.join(wicketHome, 'history', `${projectSlug(projectDir)}.jsonl`);
}

export function loadHistory(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line);
      if (typeof v === 'string' && v.trim()) out.push(v);
    } catch {
      // a torn line: skip it
    }
  }
  const kept = out.slice(-MAX_ENTRIES);
  if (out.length > MAX_ENTRIES * 2) {
    try {
      writeFileSync(file, kept.map((e) => JSON.stringify(e)).join('\n') + '\n');
    } catch {
      // keep the long file
    }
  }
  return kept;
}

export function appendHistory(file: string, entry: string): void {
  if (!entry.trim() || entry.length > MAX_ENTRY_CHARS) return;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } catch {
    // history is a convenience; never an error
  }
}

/** Walks the history with Up/Down, keeping the draft that was being typed. */
export class HistoryCursor {
  private index: number;
  private draft = '';
  constructor(private entries: string[]) {
    this.index = entries.length;
  }

  push(entry: string): void {
    if (entry.trim() && this.entries.at(-1) !== entry) this.entries.push(entry);
    this.index = this.entries.length;
    this.draft = '';
  }

  /** The older entry, or undefined at the oldest. */
  up(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** The newer entry, the draft after the newest, or undefined when already at the draft. */
  down(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  get all(): readonly string[] {
    return this.entries;
  }
}

/**
 * Ctrl+R: the newest entry before index `before` that contains `query` (case does not matter),
 * skipping entries equal to `skip` so that pressing Ctrl+R again always shows something new.
 */
export function searchHistory(entries: readonly string[], query: string, before = entries.length, skip?: string): { index: number; entry: string } | undefined {
  const q = query.toLowerCase();
  for (let i = Math.min(before, entries.length) - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry !== skip && entry.toLowerCase().includes(q)) return { index: i, entry };
  }
  return undefined;
}
