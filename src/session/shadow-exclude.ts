/**
 * What a snapshot leaves out (shadow-git.ts). Everything in the project is kept (tracked, untracked
 * and ignored files) except:
 * - a file larger than the per-file cap (`WICKET_SNAPSHOT_MAX_FILE_MB`, default 5 MB);
 * - an ignored folder (by .gitignore, .git/info/exclude or git's global excludes) that is large: more
 *   than 1,000 files or more than 20 MB in all (node_modules/, dist/, .venv/, target/ …);
 * - what git never keeps: `.git` folders, and the contents of a nested repository;
 * - wicket's own state folder when it lies inside the project.
 */
import { lstat, readdir } from '../base/fs/lazy-fs.js';
import { lstatSync, readFileSync, type Stats } from 'node:fs';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';
import path from 'node:path';

export const LARGE_DIR_FILES = 1000;
export const LARGE_DIR_BYTES = 20 * 1024 * 1024;
const DEFAULT_FILE_CAP_MB = 5;

/** The per-file cap in bytes, from `WICKET_SNAPSHOT_MAX_FILE_MB` (a positive number) or the default. */
export function fileCapBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.WICKET_SNAPSHOT_MAX_FILE_MB);
  return Math.round((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_FILE_CAP_MB) * 1024 * 1024);
}

/**
 * Of the ignored paths git listed (folders end in `/`), those small enough to keep: files under the
 * cap, folders under the large-folder limits. Never throws: what cannot be measured is left out.
 */
export async function smallIgnored(workTree: string, listed: readonly string[], fileCap: number): Promise<string[]> {
  const keep: string[] = [];
  for (const rel of listed) {
    const abs = path.join(workTree, rel);
    if (rel.endsWith('/')) {
      if (await folderIsSmall(abs, fileCap)) keep.push(rel.slice(0, -1));
      continue;
    }
    const st = await lstat(abs).catch(() => undefined);
    if (st && (st.isFile() || st.isSymbolicLink()) && st.size <= fileCap) keep.push(rel);
  }
  return keep;
}

/** Whether a folder holds at most LARGE_DIR_FILES files and LARGE_DIR_BYTES bytes; stops counting past either. */
async function folderIsSmall(dir: string, fileCap: number): Promise<boolean> {
  let files = 0;
  let bytes = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      return false;
    }
    if (names.includes('.git')) return false; // a nested repository: git keeps it as a link only
    files += names.length;
    if (files > LARGE_DIR_FILES) return false;
    // a folder's entries are measured together, not one await each
    const stats = await Promise.all(names.map((n) => lstat(path.join(d, n)).catch(() => undefined)));
    for (const [i, n] of names.entries()) {
      const st = stats[i];
      if (!st) continue;
      if (st.isDirectory()) stack.push(path.join(d, n));
      else bytes += st.size;
      if (bytes > LARGE_DIR_BYTES || st.size > fileCap) return false;
    }
  }
  return true;
}

/** Paths git reported adding (`git add -v`: `add '<path>'`) that are over the cap now. */
export function overCap(workTree: string, addOutput: string, fileCap: number): string[] {
  const over: string[] = [];
  for (const line of addOutput.split('\n')) {
    const m = /^add '(.*)'$/.exec(line);
    if (!m) continue;
    let st: Stats | undefined;
    try {
      st = lstatSync(path.join(workTree, m[1]!));
    } catch {
      continue;
    }
    if (st?.isFile() && st.size > fileCap) over.push(m[1]!);
  }
  return over;
}

/** A line of a gitignore file that matches exactly `rel` (relative to the work tree). */
export function exactPattern(rel: string): string {
  return `/${rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}`;
}

/**
 * The folders the last full scan left out as large (`wicket-left-out` in the shadow, a JSON list),
 * so that a new process's watch skips them from its first scan; undefined when unknown or unreadable.
 */
export function readLeftOut(gitDir: string): string[] | undefined {
  try {
    const list = JSON.parse(readFileSync(path.join(gitDir, 'wicket-left-out'), 'utf8')) as unknown;
    return Array.isArray(list) && list.every((x) => typeof x === 'string') ? list : undefined;
  } catch {
    return undefined;
  }
}

export function writeLeftOut(gitDir: string, leftOut: readonly string[]): void {
  void writeFileAtomic(path.join(gitDir, 'wicket-left-out'), `${JSON.stringify(leftOut)}\n`).catch(() => undefined);
}

/** The same paths, in any order. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
