/**
 * Ctrl+G: the prompt in the person's editor ($VISUAL, else $EDITOR, else vi), as Claude Code opens
 * it. The text goes to a file of its own; the terminal is handed over (raw mode and bracketed paste
 * off) while the editor runs, and taken back after; what the file then holds becomes the prompt.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type EditorOutcome = { text: string } | { error: string };

/** The editor command line, as the person's shell would read it. */
export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

export function editInEditor(text: string, env: Record<string, string | undefined>): EditorOutcome {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-prompt-'));
  const file = path.join(dir, 'prompt.md');
  const stdin = process.stdin;
  const raw = stdin.isTTY === true && stdin.isRaw === true;
  try {
    writeFileSync(file, text, { mode: 0o600 });
    if (raw) stdin.setRawMode(false);
    if (process.stdout.isTTY) process.stdout.write('\x1b[?2004l');
    const editor = editorCommand(env);
    const r = spawnSync('sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit', env: { ...process.env, ...env } });
    if (r.error) return { error: `${editor} could not start: ${r.error.message}` };
    if (r.status !== 0) return { error: `${editor} exited with ${r.status ?? r.signal}; the prompt is unchanged` };
    return { text: readFileSync(file, 'utf8').replace(/\n$/, '') };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    if (raw) stdin.setRawMode(true);
    if (process.stdout.isTTY) process.stdout.write('\x1b[?2004h');
    rmSync(dir, { recursive: true, force: true });
  }
}
