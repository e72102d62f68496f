/**
 * Where a person puts a line of memory by hand (`# text` in the app, as Claude Code's memory
 * shortcut did: a choice of file, the text added as a list item) and the files /memory offers to open.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../base/fs/write-file-atomic.js';
import { MEMORY_INDEX } from './auto-memory.js';

export interface MemoryTarget {
  /** The word /memory takes for it. */
  name: 'project' | 'local' | 'user' | 'auto';
  label: string;
  file: string;
  note: string;
}

export function memoryTargets(o: { cwd: string; configDir: string; memoryDir?: string }): MemoryTarget[] {
  return [
    { name: 'project', label: 'Project memory', file: path.join(o.cwd, 'CLAUDE.md'), note: 'checked in with the project' },
    { name: 'local', label: 'Project memory (local)', file: path.join(o.cwd, 'CLAUDE.local.md'), note: 'yours, not checked in' },
    { name: 'user', label: 'User memory', file: path.join(o.configDir, 'CLAUDE.md'), note: 'yours, for every project' },
    ...(o.memoryDir
      ? [{ name: 'auto' as const, label: 'Auto memory index', file: path.join(o.memoryDir, MEMORY_INDEX), note: "the model's notes on this project" }]
      : []),
  ];
}

/** Adds `- text` as the file's last line (the file and its folder made when missing). */
export async function appendMemoryLine(file: string, text: string): Promise<void> {
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(file), { recursive: true });
  }
  const line = `- ${text.replace(/\s*\n\s*/g, ' ').trim()}\n`;
  await writeFileAtomic(file, before && !before.endsWith('\n') ? `${before}\n${line}` : `${before}${line}`);
}
