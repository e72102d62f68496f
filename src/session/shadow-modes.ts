/**
 * Every permission bit of the files and folders a snapshot covers (shadow-git.ts): git keeps only
 * 644 or 755 for a file and nothing for a folder, so wicket keeps its own record beside each
 * snapshot: the full mode (setuid, setgid and sticky bits included) of every regular file and folder
 * of the work tree whose mode is not what git's tree implies (a file 644 or 755 as its executable
 * bit says, a folder 755), but in `.git` folders, nested repositories and the folders a snapshot
 * leaves out. A path not in the record has that default mode (`defaultMode`).
 *
 * The record is a blob in the shadow repository (`<mode> <f|d> <path>\0`, sorted), named in the
 * snapshot's commit message and kept alive by a parent commit whose tree holds it, so that pruning
 * keeps it exactly as long as the snapshot. It is never written into the project.
 *
 * A full record is read by one `find -printf` walk (GNU find: on Linux, a 50,000-file tree in about
 * the time of git's own stat walk, which it runs beside), or by a walk in Node where that is not
 * available; after changes the watch saw, only the changed paths are read again (`updateModes`).
 */
import { lstat, readdir } from '../base/fs/lazy-fs.js';
import path from 'node:path';

/** Path (relative, `/`-separated; '' for the work tree's root) → `'f' | 'd'` and its permission bits (0o7777). */
export type ModeMap = Map<string, { kind: 'f' | 'd'; mode: number }>;

/** A record and, once written, its blob in the shadow repository. */
export interface ModeRecord {
  map: ModeMap;
  blob?: string;
}

/** The mode a path not in the record has: a file's as its executable bit in git's tree says, a folder 755. */
export function defaultMode(kind: 'f' | 'd', executable: boolean): number {
  return kind === 'd' || executable ? 0o755 : 0o644;
}

function recorded(kind: 'f' | 'd', mode: number): boolean {
  return mode !== defaultMode(kind, (mode & 0o100) !== 0);
}

/** Runs a command (find) and gives its stdout, or undefined when it could not run or failed. */
export type Exec = (cmd: string, args: readonly string[]) => Promise<Buffer | undefined>;

/**
 * The record of the whole work tree, leaving out `skip` (relative folders), `.git` folders and what
 * nested repositories hold; and the nested repositories found (relative folders holding a `.git`).
 */
export async function readModes(root: string, skip: readonly string[], exec: Exec): Promise<{ map: ModeMap; nested: string[] }> {
  const nested: string[] = [];
  if (process.platform === 'linux') {
    const out = await exec('find', findArgs(root, skip));
    if (out) return { map: parseModes(out, nested), nested };
  }
  return { map: await walkModes(root, '', new Set(skip), nested), nested };
}

function findArgs(root: string, skip: readonly string[]): string[] {
  const gitEntry = ['(', '-name', '.git', '-printf', '0 g %P\\0', '-prune', ')'];
  const left = skip.flatMap((s, i) => [...(i ? ['-o'] : []), '-path', path.join(root, s).replace(/[\\*?[]/g, (c) => `\\${c}`)]);
  const leftOut = left.length ? ['-o', '(', ...left, ')', '-prune'] : [];
  // only what is not the default: a file neither 644 nor 755, a folder not 755
  const files = ['(', '-type', 'f', '!', '-perm', '644', '!', '-perm', '755', ')'];
  const folders = ['(', '-type', 'd', '!', '-perm', '755', ')'];
  return [root, ...gitEntry, ...leftOut, '-o', '(', ...files, '-o', ...folders, ')', '-printf', '%m %y %P\\0'];
}

/**
 * Parses find's `<octal mode> <type> <path>\0` records (`g`: a `.git`, not kept). A nested
 * repository's folder stays in the record (its own mode), not what it holds: git keeps it as a link.
 */
export function parseModes(out: Buffer, nestedFound: string[] = []): ModeMap {
  const map: ModeMap = new Map();
  const nested: string[] = [];
  for (const rec of out.toString('utf8').split('\0')) {
    const a = rec.indexOf(' ');
    const kind = rec[a + 1];
    if (a < 1 || rec[a + 2] !== ' ') continue;
    const rel = rec.slice(a + 3);
    if (kind === 'g' && rel !== '.git') {
      nested.push(`${path.posix.dirname(rel)}/`);
      nestedFound.push(path.posix.dirname(rel));
    }
    const mode = Number.parseInt(rec.slice(0, a), 8);
    if ((kind === 'f' || kind === 'd') && Number.isInteger(mode) && recorded(kind, mode & 0o7777)) map.set(rel, { kind, mode: mode & 0o7777 });
  }
  if (nested.length) for (const p of map.keys()) if (nested.some((n) => p.startsWith(n))) map.delete(p);
  return map;
}

/** The record of `start` (relative) and everything under it, by lstat. */
async function walkModes(root: string, start: string, skip: ReadonlySet<string>, nested: string[] = []): Promise<ModeMap> {
  const map: ModeMap = new Map();
  const top = await lstat(path.join(root, start)).catch(() => undefined);
  if (!top) return map;
  const note = (rel: string, kind: 'f' | 'd', mode: number) => {
    if (recorded(kind, mode & 0o7777)) map.set(rel, { kind, mode: mode & 0o7777 });
  };
  if (top.isFile()) note(start, 'f', top.mode);
  if (!top.isDirectory()) return map;
  note(start, 'd', top.mode);
  const stack = [start];
  while (stack.length) {
    const rel = stack.pop()!;
    const names = await readdir(path.join(root, rel)).catch(() => [] as string[]);
    if (rel && names.includes('.git')) {
      nested.push(rel); // a nested repository
      continue;
    }
    const stats = await Promise.all(names.map((n) => lstat(path.join(root, rel, n)).catch(() => undefined)));
    for (const [i, n] of names.entries()) {
      const st = stats[i];
      const r = rel ? `${rel}/${n}` : n;
      if (!st || n === '.git' || skip.has(r)) continue;
      if (st.isDirectory()) {
        note(r, 'd', st.mode);
        stack.push(r);
      } else if (st.isFile()) note(r, 'f', st.mode);
    }
  }
  return map;
}

/** A copy of `map` with `paths` (relative, changed since) read again, with everything under them; `nested`: the nested repositories found there. */
export async function updateModes(root: string, map: ModeMap, paths: readonly string[], skip: readonly string[], nested: string[] = []): Promise<ModeMap> {
  const changed = new Set(paths);
  const next: ModeMap = new Map();
  for (const [k, v] of map) if (!under(k, changed)) next.set(k, v);
  const skipSet = new Set(skip);
  const read = await Promise.all(paths.map((p) => walkModes(root, p, skipSet, nested)));
  for (const m of read) for (const [k, v] of m) next.set(k, v);
  return next;
}

/** Whether `rel` or a folder above it is in `set`. */
function under(rel: string, set: ReadonlySet<string>): boolean {
  for (let p = rel; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (set.has(p)) return true;
    if (!p.includes('/')) return false;
  }
}

/** The blob's bytes: one `<octal mode> <f|d> <path>\0` per entry, sorted by path. */
export function serializeModes(map: ModeMap): string {
  const keys = [...map.keys()].sort();
  return keys.map((k) => `${map.get(k)!.mode.toString(8)} ${map.get(k)!.kind} ${k}\0`).join('');
}

/** A mode as `ls` users read it: `644`, `4755`. */
export function octal(mode: number): string {
  return mode.toString(8).padStart(3, '0');
}
