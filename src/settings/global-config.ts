/**
 * `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`), the state file Claude Code writes: MCP
 * servers of the user and local scopes, and which folders the person trusts. Read as a JSON object
 * and changed in place: every other key is kept, and a file that is not valid JSON is never overwritten.
 */
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';
import { isObject } from './validate.js';

/** The file's object, {} when it does not exist; throws with the file named when it is not a JSON object. */
export function readJsonObject(file: string): Record<string, any> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it by hand, it was not changed`);
  }
  if (!isObject(value)) throw new Error(`${file} does not hold a JSON object; it was not changed`);
  return value as Record<string, any>;
}

let shared: { file: string; stamp: string; data: Record<string, any> } | undefined;

/**
 * The same, for readers that only look: one read and one parse a run while the file stays as it was
 * (trust, imports approval and MCP servers each ask it at start, and Claude Code's file grows to
 * hundreds of kilobytes). The object is shared: never change it (editJsonObject reads its own).
 */
export function readJsonObjectShared(file: string): Record<string, any> {
  const st = statSync(file, { throwIfNoEntry: false });
  const stamp = st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : 'none';
  if (shared?.file === file && shared.stamp === stamp) return shared.data;
  const data = readJsonObject(file);
  shared = { file, stamp, data };
  return data;
}

/** Reads the object, lets `edit` change it, and writes it back atomically (two-space JSON, as Claude Code does). */
export async function editJsonObject(file: string, edit: (data: Record<string, any>) => void): Promise<void> {
  const data = readJsonObject(file);
  edit(data);
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

/** `data.projects[dir]`, created on the way when `create`. */
export function projectEntry(data: Record<string, any>, dir: string, create: boolean): Record<string, any> | undefined {
  if (!isObject(data.projects)) {
    if (!create) return undefined;
    data.projects = {};
  }
  if (!isObject(data.projects[dir])) {
    if (!create) return undefined;
    data.projects[dir] = {};
  }
  return data.projects[dir];
}
