/**
 * After a sandboxed command: configuration it made below the roots is moved out of the project.
 *
 * Mounts keep the roots' configuration safe while the command runs (protect.ts). Below them, a
 * command could still create `sub/.claude/settings.json` or `sub/CLAUDE.md` (read by a session
 * started in `sub/`), or put a file where a configuration link was. So the walk made before the
 * command is made again: an entry that was not there before (by path and inode; a folder renamed
 * with its files is not new) is moved to `<wicket home>/sandbox-quarantine/<time>/…`, and a
 * configuration link that was replaced is put back. Files inside a nested `.git` are left alone (a
 * clone's own data). The notes say what was moved, for the model and the person.
 */
import { cpSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { randomHex } from '../base/ids.js';
import { takeSnapshot, type Snapshot } from './protect.js';
import { CONFIG_NAMES } from './walk.js';

export interface GuardContext {
  wicketHome: string;
  deadline: number;
}

export function checkAfterRun(before: Snapshot, ctx: GuardContext): string[] {
  if (!before.roots.length) return [];
  const after = takeSnapshot(before.roots, before.configDirs, ctx.deadline);
  const moved: string[] = [];
  let box: string | undefined;
  const quarantine = (p: string): void => {
    box ??= path.join(ctx.wicketHome, 'sandbox-quarantine', `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomHex(3)}`);
    if (moveOut(p, path.join(box, p))) moved.push(p);
  };
  const restored: string[] = [];
  for (const [p, was] of before.entries) {
    if (was.kind !== 'link' || was.target === undefined) continue;
    const now = after.entries.get(p);
    if (now && now.id === was.id) continue;
    if (now || exists(p)) quarantine(p);
    try {
      symlinkSync(was.target, p);
      restored.push(p);
    } catch {
      // its folder is gone too; nothing to put it back into
    }
  }
  const fresh = [...after.entries.values()]
    .filter((e) => before.entries.get(e.path)?.id !== e.id && !before.ids.has(e.id) && !insideGit(e.path, before.roots))
    .map((e) => topOf(e.path, before))
    .filter((p) => !before.configDirs.includes(path.dirname(p)) && !before.configDirs.some((d) => isConfigOf(p, d)))
    .sort((a, b) => a.length - b.length);
  for (const p of fresh) if (!moved.some((m) => p === m || p.startsWith(`${m}${path.sep}`)) && exists(p)) quarantine(p);
  const notes: string[] = [];
  if (moved.length) {
    notes.push(
      `wicket moved out configuration the sandboxed command created or replaced: ${moved.join(', ')} (now in ${box}). ` +
        'Commands in the sandbox may not create or change .claude/, CLAUDE.md, CLAUDE.local.md or .mcp.json in the project; ask the user to do it.',
    );
  }
  if (restored.length) notes.push(`wicket put back the configuration link${restored.length > 1 ? 's' : ''} ${restored.join(', ')}.`);
  if (!after.complete) notes.push('wicket could not finish checking the project for configuration the command may have created (a very large tree).');
  return notes;
}

/** The highest configuration entry holding `p` that is new as a whole (no entry of it was there before). */
function topOf(p: string, before: Snapshot): string {
  const parts = p.split(path.sep);
  for (let i = 1; i < parts.length; i++) {
    if (!CONFIG_NAMES.has(parts[i]!)) continue;
    const top = parts.slice(0, i + 1).join(path.sep);
    const prefix = `${top}${path.sep}`;
    const known = [...before.entries.keys()].some((k) => k === top || k.startsWith(prefix));
    return known ? p : top;
  }
  return p;
}

/** Is `p` inside one of `dir`'s own configuration entries (`dir/.claude/…`)? */
function isConfigOf(p: string, dir: string): boolean {
  if (!p.startsWith(`${dir}${path.sep}`)) return false;
  return CONFIG_NAMES.has(p.slice(dir.length + 1).split(path.sep)[0]!);
}

function insideGit(p: string, roots: readonly string[]): boolean {
  const root = roots.find((r) => p.startsWith(`${r}${path.sep}`));
  const rel = root ? p.slice(root.length + 1) : p;
  return rel.split(path.sep).includes('.git');
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function moveOut(from: string, to: string): boolean {
  try {
    mkdirSync(path.dirname(to), { recursive: true });
    try {
      renameSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      cpSync(from, to, { recursive: true, verbatimSymlinks: true });
      rmSync(from, { recursive: true, force: true });
    }
    return true;
  } catch {
    return false;
  }
}
