/**
 * Opens a file in the person's editor ($VISUAL, else $EDITOR, else vi) while the app waits: the
 * terminal leaves raw mode for the editor and gets it back after. The folder is made when missing;
 * the file is made by the editor when saved.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../sandbox/index.js';

export function editorOf(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** Runs the editor on `file`; a reason when it could not run or failed. */
export function openInEditor(file: string, env: Record<string, string | undefined>, setRawMode?: (on: boolean) => void): string | undefined {
  const editor = editorOf(env);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (err) {
    return `${path.dirname(file)} could not be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  setRawMode?.(false);
  try {
    const run = spawnSync(`${editor} ${shellQuote(file)}`, { stdio: 'inherit', shell: true, env: env as NodeJS.ProcessEnv });
    if (run.error) return `${editor} could not start: ${run.error.message}`;
    if (run.status !== 0) return `${editor} ended with code ${run.status ?? run.signal}`;
    return undefined;
  } finally {
    setRawMode?.(true);
  }
}
