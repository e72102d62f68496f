/**
 * The person's editor ($VISUAL, else $EDITOR, else vi), as Claude Code opens it, while the app waits:
 * the terminal is handed over (raw mode and bracketed paste off) while the editor runs, and taken back
 * after. `openInEditor` opens a file (/memory: the folder is made when missing, the file by the editor
 * when saved); `editInEditor` opens the prompt (Ctrl+G) in a file of its own and gives back what it
 * then holds.
 */
import { spawnSync } from 'node:child_process';
import { FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON } from './attention.js';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { shellQuote } from '../sandbox/index.js';

export type EditorOutcome = { text: string } | { error: string };

/** The editor command line, as the person's shell would read it. */
export function editorOf(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** Runs the editor on `file` with the terminal handed over; a reason when it could not run or failed. */
function runEditor(file: string, env: Record<string, string | undefined>, setRawMode?: (on: boolean) => void): string | undefined {
  const editor = editorOf(env);
  setRawMode?.(false);
  // Bracketed paste and focus reports off while the editor has the terminal (its input would show them).
  if (process.stdout.isTTY) process.stdout.write(`\x1b[?2004l${FOCUS_REPORTING_OFF}`);
  try {
    const run = spawnSync(`${editor} ${shellQuote(file)}`, { stdio: 'inherit', shell: true, env: { ...process.env, ...env } as NodeJS.ProcessEnv });
    if (run.error) return `${editor} could not start: ${run.error.message}`;
    if (run.status !== 0) return `${editor} ended with code ${run.status ?? run.signal}`;
    return undefined;
  } finally {
    setRawMode?.(true);
    if (process.stdout.isTTY) process.stdout.write(`\x1b[?2004h${FOCUS_REPORTING_ON}`);
  }
}

/** Opens `file` in the editor; a reason when it could not run or failed. */
export function openInEditor(file: string, env: Record<string, string | undefined>, setRawMode?: (on: boolean) => void): string | undefined {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (err) {
    return `${path.dirname(file)} could not be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  return runEditor(file, env, setRawMode);
}

/** Ctrl+G: the prompt's text edited in the editor; the prompt is unchanged when the editor fails. */
export function editInEditor(text: string, env: Record<string, string | undefined>): EditorOutcome {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-prompt-'));
  const file = path.join(dir, 'prompt.md');
  const stdin = process.stdin;
  const raw = stdin.isTTY === true && stdin.isRaw === true;
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const failed = runEditor(file, env, raw ? (on) => stdin.setRawMode(on) : undefined);
    if (failed) return { error: `${failed}; the prompt is unchanged` };
    return { text: readFileSync(file, 'utf8').replace(/\n$/, '') };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
