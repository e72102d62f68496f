/**
 * Files a shell command writes outside the project, as far as the command can be read statically
 * (tools/bash/file-access.ts): a snapshot of the project cannot put them back, so a restore lists
 * them as not restorable rather than miss them silently.
 */
import path from 'node:path';
import { isInside } from '../../base/paths.js';
import { analyzeBash } from '../../tools/bash/analyze.js';
import { fileAccesses } from '../../tools/bash/file-access.js';

const HARMLESS = /^\/(dev|proc)\//;

/** Absolute paths `command` (run in `cwd`) writes that are not under `root`. Never throws. */
export function writesOutside(command: string, cwd: string, root: string, homeDir: string): string[] {
  try {
    const files = fileAccesses(analyzeBash(command), { cwd, homeDir });
    const out = files.filter((f) => f.access === 'write' && f.path !== undefined && !isInside(f.path, root) && !HARMLESS.test(f.path));
    return [...new Set(out.map((f) => path.normalize(f.path!)))];
  } catch {
    return [];
  }
}
