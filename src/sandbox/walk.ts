/**
 * The two walks the sandbox makes before (and after) a command:
 * - `listFiles`: every file under a folder, links followed, for the deny rules that name files by
 *   pattern (`Read(.env)`, `Read(./config/*.key)`); ripgrep lists them, with a deadline and a cap;
 * - `findConfig`: the configuration files wicket reads (`.claude/`, `CLAUDE.md`, `.mcp.json`, git's
 *   hooks and config) in the folders below a writable root, to a fixed depth, `node_modules` left out
 *   (wicket reads no configuration there, and package managers must stay free to replace packages).
 *   Symbolic links are reported as links, not followed.
 */
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { runRg } from '../base/ripgrep/run.js';

export interface FileList {
  files: string[];
  /** False when the deadline or the cap stopped the listing. */
  complete: boolean;
}

/** Most files one deny walk may list before it gives up (and the sandbox refuses). */
export const MAX_LISTED_FILES = 2_000_000;

/** Trees up to this many entries are listed in-process (no ripgrep process to start). */
const SMALL_TREE = 3_000;

export async function listFiles(root: string, deadline: number): Promise<FileList> {
  return listSmall(root) ?? listWithRg(root, deadline);
}

/** The whole listing, links followed (each real folder once), or undefined when the tree is not small. */
function listSmall(root: string): FileList | undefined {
  const files: string[] = [];
  const seen = new Set<string>();
  const stack = [root];
  let entries = 0;
  while (stack.length) {
    const dir = stack.pop()!;
    try {
      const real = realpathSync.native(dir);
      if (seen.has(real)) continue;
      seen.add(real);
    } catch {
      continue;
    }
    for (const d of readDir(dir)) {
      if (++entries > SMALL_TREE) return undefined;
      const p = path.join(dir, d.name);
      let isDir = d.isDirectory();
      if (d.isSymbolicLink()) {
        try {
          isDir = statSync(p).isDirectory();
        } catch {
          continue; // a dangling link: nothing to read
        }
      }
      if (isDir) stack.push(p);
      else files.push(p);
    }
  }
  return { files, complete: true };
}

async function listWithRg(root: string, deadline: number): Promise<FileList> {
  const files: string[] = [];
  const timeoutMs = Math.max(1, deadline - Date.now());
  const r = await runRg({
    args: ['--no-config', '--files', '--hidden', '--no-ignore', '--follow', '--no-messages', '--null'],
    cwd: root,
    signal: new AbortController().signal,
    timeoutMs,
    delimiter: '\0',
    onLine: (line) => {
      files.push(path.join(root, line));
      return files.length < MAX_LISTED_FILES;
    },
  });
  return { files, complete: !r.timedOut && !r.stopped };
}

/** The names wicket reads configuration from, in any folder it is started in. */
export const CONFIG_NAMES: ReadonlySet<string> = new Set(['.claude', '.mcp.json', 'CLAUDE.md', 'CLAUDE.local.md']);

export type EntryKind = 'file' | 'dir' | 'link' | 'other';

export interface ConfigEntry {
  path: string;
  kind: EntryKind;
  /** Which file this is: inode, kind and birth time (an inode number alone is reused at once). */
  id: string;
}

export interface ConfigScan {
  /** Configuration entries: `.claude`, `CLAUDE.md`…, `.git` and its `hooks` and `config`. */
  entries: ConfigEntry[];
  complete: boolean;
}

/** How deep below a writable root configuration is looked for (root = 0: `a/b/c/d/e/CLAUDE.md` is 5). */
export const CONFIG_DEPTH = 5;

/**
 * The entries only, not what is inside them: an existing configuration folder is bound read-only
 * whole, so nothing inside it can change; a new one is new as a whole.
 */
export function findConfig(root: string, deadline: number): ConfigScan {
  const entries: ConfigEntry[] = [];
  let complete = true;
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  for (let next = 0; next < queue.length; next++) {
    if (Date.now() > deadline) {
      complete = false;
      break;
    }
    const { dir, depth } = queue[next]!;
    for (const d of readDir(dir)) {
      const p = path.join(dir, d.name);
      if (CONFIG_NAMES.has(d.name)) add(entries, p);
      else if (d.name === '.git') {
        const git = add(entries, p);
        if (git?.kind === 'dir') for (const part of ['hooks', 'config']) add(entries, path.join(p, part));
      } else if (d.isDirectory() && d.name !== 'node_modules' && depth < CONFIG_DEPTH) {
        queue.push({ dir: p, depth: depth + 1 });
      }
    }
  }
  return { entries, complete };
}

function add(out: ConfigEntry[], p: string): ConfigEntry | undefined {
  const e = entryOf(p);
  if (e) out.push(e);
  return e;
}

export function entryOf(p: string): ConfigEntry | undefined {
  try {
    const st = lstatSync(p, { bigint: true });
    const kind: EntryKind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    return { path: p, kind, id: `${st.dev}:${st.ino}:${kind}:${st.birthtimeNs}` };
  } catch {
    return undefined;
  }
}

function readDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
