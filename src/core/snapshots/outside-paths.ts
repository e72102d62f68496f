/**
 * Files a shell command writes outside the project, as far as the command can be read statically
 * (tools/bash/file-access.ts, the Bash tool's own parser: a `cd` is followed, `~` and redirections
 * are read): a snapshot of the project cannot put them back, so a restore lists them as not
 * restorable rather than miss them silently. `$HOME` and `$PWD` are read as the session's (only for
 * this list: a permission check never trusts them).
 */
import path from 'node:path';
import { isInside } from '../../base/paths.js';
import { analyzeBash } from '../../tools/bash/analyze.js';
import { fileAccesses } from '../../tools/bash/file-access.js';

const HARMLESS = /^\/(dev|proc)\//;

/** Absolute paths `command` (run in `cwd`) writes that are not under `root`. Never throws. */
export function writesOutside(command: string, cwd: string, root: string, homeDir: string): string[] {
  try {
    const files = fileAccesses(analyzeBash(withKnownVariables(command, cwd, homeDir)), { cwd, homeDir });
    const out = files.filter((f) => f.access === 'write' && f.path !== undefined && !isInside(f.path, root) && !HARMLESS.test(f.path));
    return [...new Set(out.map((f) => path.normalize(f.path!)))];
  } catch {
    return [];
  }
}

/** `$HOME`, `${HOME}`, `$PWD` and `${PWD}` written as their values when they are safe to put in a word. */
function withKnownVariables(command: string, cwd: string, homeDir: string): string {
  const values: Record<string, string> = { HOME: homeDir, PWD: cwd };
  return command.replace(/\$(?:\{(HOME|PWD)\}|(HOME|PWD)(?![\w]))/g, (all, a: string | undefined, b: string | undefined) => {
    const v = values[(a ?? b)!]!;
    return /^[\w./-]+$/.test(v) ? v : all;
  });
}
