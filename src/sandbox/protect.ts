/**
 * What a sandboxed command may never create, change, rename or delete: the configuration wicket
 * reads and the programs it runs.
 *
 * In every writable root (the project, the added folders, `allowWrite` folders) and in every parent
 * of the project that lies in one, whether or not they exist yet: `.claude/`, `.mcp.json`,
 * `CLAUDE.md`, `CLAUDE.local.md`, and git's `.git/hooks/`, `.git/config` (with `core.hooksPath`,
 * and submodules' hooks and config under `.git/modules/`). A path that exists is bound read-only
 * onto itself; one that does not is masked by an empty read-only folder or file (mount-points.ts).
 * A missing `.git` is masked as a whole, so `git init` there needs a command outside the sandbox: a
 * repository made in the sandbox could bring hooks of its own.
 * The user's config folder, `~/.claude.json`, wicket's folder and the settings files are kept
 * read-only too when a writable root holds them (config-files.ts), and so are the scripts hooks and
 * MCP servers run.
 *
 * Below the roots (to CONFIG_DEPTH, node_modules left out), configuration that exists is made
 * read-only; configuration a command creates there is found afterwards and moved out (guard.ts).
 * Shell start-up files, editor folders and the like (EXISTING_ONLY) are kept read-only when they
 * exist, as before.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { realPathDeep } from '../permissions/real-path.js';
import { isInside } from '../base/paths.js';
import { commandFiles, userConfigPaths, type ConfigFilesContext } from './config-files.js';
import type { MissingPath } from './deny-paths.js';
import { CONFIG_NAMES, findConfig, type ConfigEntry } from './walk.js';

export interface ProtectContext extends ConfigFilesContext {
  writableRoots: readonly string[];
  deadline: number;
}

export interface Snapshot {
  roots: string[];
  /** Folders whose own configuration is held by mounts (not checked afterwards: wicket itself may write there). */
  configDirs: string[];
  entries: Map<string, ConfigEntry & { target?: string }>;
  ids: Set<string>;
  complete: boolean;
}

export interface Protection {
  /** Existing paths (real locations) bound read-only. */
  readOnly: string[];
  /** Paths kept from being created. */
  missing: MissingPath[];
  /** The configuration below the roots as it was, for the check after the command. */
  snapshot: Snapshot;
  problems: string[];
}

const ROOT_CONFIG: readonly MissingPath[] = [
  { path: '.claude', kind: 'dir' },
  { path: '.mcp.json', kind: 'file' },
  { path: 'CLAUDE.md', kind: 'file' },
  { path: 'CLAUDE.local.md', kind: 'file' },
];

/** Kept read-only when they exist in a root (code other programs run, editor settings). */
const EXISTING_ONLY = ['.vscode', '.idea', '.husky', '.gitmodules', '.bashrc', '.bash_profile', '.profile', '.zshrc', '.zprofile', '.gitconfig', '.envrc'];

export function protection(ctx: ProtectContext): Protection {
  const p = new Protector(ctx);
  for (const dir of p.configDirs()) {
    for (const item of ROOT_CONFIG) p.protect(path.join(dir, item.path), item.kind);
    p.git(path.join(dir, '.git'), dir);
    for (const name of EXISTING_ONLY) p.protectIfExists(path.join(dir, name));
  }
  for (const item of userConfigPaths(ctx)) p.protect(item.path, item.kind);
  for (const file of commandFiles(ctx)) p.protectIfExists(file);
  const snapshot = takeSnapshot(p.roots, p.configDirs(), ctx.deadline);
  p.nested(snapshot);
  if (!snapshot.complete) {
    p.problems.push(`the sandbox could not look through ${p.roots.join(', ')} for configuration files in time (a very large tree); nothing was run`);
  }
  return { readOnly: [...p.readOnly], missing: [...p.missing.values()], snapshot, problems: p.problems };
}

/** The configuration below the roots: every entry the walk finds, with link targets. */
export function takeSnapshot(roots: readonly string[], configDirs: readonly string[], deadline: number): Snapshot {
  const entries = new Map<string, ConfigEntry & { target?: string }>();
  let complete = true;
  for (const root of roots) {
    const scan = findConfig(root, deadline);
    complete &&= scan.complete;
    for (const e of scan.entries) entries.set(e.path, e.kind === 'link' ? { ...e, target: linkTarget(e.path) } : e);
  }
  return { roots: [...roots], configDirs: [...configDirs], entries, ids: new Set([...entries.values()].map((e) => e.id)), complete };
}

class Protector {
  readonly roots: string[];
  readonly readOnly = new Set<string>();
  readonly missing = new Map<string, MissingPath>();
  readonly problems: string[] = [];

  constructor(private readonly ctx: ProtectContext) {
    this.roots = [...new Set(ctx.writableRoots)];
  }

  /** Each root, and each parent of the project inside one (wicket reads CLAUDE.md, agents and .mcp.json there). */
  configDirs(): string[] {
    const dirs = new Set(this.roots);
    for (let d = path.dirname(this.ctx.projectRoot); ; d = path.dirname(d)) {
      if (this.rootOf(d)) dirs.add(d);
      if (path.dirname(d) === d) break;
    }
    return [...dirs];
  }

  /** The innermost writable root holding `p`. */
  rootOf(p: string): string | undefined {
    return this.roots.filter((r) => isInside(p, r)).sort((a, b) => b.length - a.length)[0];
  }

  protect(p: string, kind: 'file' | 'dir'): void {
    const st = lstatOf(p);
    if (st?.isSymbolicLink()) {
      // The link itself cannot be masked: its target is, and the check after the command puts the link back.
      const target = realPathDeep(p);
      if (target !== p) this.protect(target, kind);
      return;
    }
    const real = realPathDeep(p);
    const root = this.rootOf(real);
    if (!root) return; // read-only already
    if (st) {
      this.readOnly.add(real);
      return;
    }
    const first = firstMissing(real);
    if (!first || !isInside(first.parent, root) || !first.parentIsDir) return;
    this.missing.set(first.path, { path: first.path, kind: first.path === real ? kind : 'dir' });
  }

  protectIfExists(p: string): void {
    if (lstatOf(p)) this.protect(p, 'file');
  }

  /** `.git` of a folder wicket is started in. */
  git(g: string, worktree: string): void {
    const st = lstatOf(g);
    if (!st) return this.protect(g, 'dir');
    if (st.isSymbolicLink()) {
      const target = realPathDeep(g);
      if (target !== g) this.git(target, worktree);
      return;
    }
    if (st.isFile()) {
      this.protect(g, 'file');
      for (const dir of gitDirsOfFile(g)) this.gitData(dir, worktree, false);
      return;
    }
    if (!st.isDirectory()) return this.protect(g, 'file');
    this.gitData(g, worktree, true);
  }

  /** hooks/ and config of a git folder (created-or-not when `whole`), its hooksPath and its submodules'. */
  private gitData(dir: string, worktree: string, whole: boolean): void {
    const each = (p: string, kind: 'file' | 'dir') => (whole ? this.protect(p, kind) : this.protectIfExists(p));
    each(path.join(dir, 'hooks'), 'dir');
    each(path.join(dir, 'config'), 'file');
    const hooksPath = readHooksPath(path.join(dir, 'config'), worktree, this.ctx.homeDir);
    if (hooksPath) this.protect(hooksPath, 'dir');
    for (const sub of submoduleDirs(path.join(dir, 'modules'))) {
      this.protectIfExists(path.join(sub, 'hooks'));
      this.protectIfExists(path.join(sub, 'config'));
    }
  }

  /** Configuration below the roots: what exists is made read-only (links: their targets). */
  nested(snapshot: Snapshot): void {
    const configDirs = new Set(this.configDirs());
    for (const e of snapshot.entries.values()) {
      const name = path.basename(e.path);
      const parent = path.dirname(e.path);
      const isGitPart = path.basename(parent) === '.git' && (name === 'hooks' || name === 'config');
      if (!CONFIG_NAMES.has(name) && !isGitPart && name !== '.git') continue;
      if (configDirs.has(parent) || (isGitPart && configDirs.has(path.dirname(parent)))) continue; // a root's: done above
      if (name === '.git' && e.kind !== 'file') continue; // a nested repository's data stays writable; its hooks and config do not
      this.protectIfExists(e.path);
    }
  }
}

function lstatOf(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** The first component of `p` that does not exist, and whether its parent is a folder. */
function firstMissing(p: string): { path: string; parent: string; parentIsDir: boolean } | undefined {
  let missing: string | undefined;
  for (let d = p; d !== path.dirname(d); d = path.dirname(d)) {
    if (lstatOf(d)) break;
    missing = d;
  }
  if (!missing) return undefined;
  const parent = path.dirname(missing);
  let parentIsDir = false;
  try {
    parentIsDir = statSync(parent).isDirectory();
  } catch {
    // no parent
  }
  return { path: missing, parent, parentIsDir };
}

function linkTarget(p: string): string | undefined {
  try {
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/** A gitfile (`gitdir: …`): the folder it names and that folder's `commondir`. */
function gitDirsOfFile(file: string): string[] {
  try {
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(file, 'utf8'));
    if (!m) return [];
    const dir = path.resolve(path.dirname(file), m[1]!.trim());
    const out = [dir];
    try {
      out.push(path.resolve(dir, readFileSync(path.join(dir, 'commondir'), 'utf8').trim()));
    } catch {
      // not a worktree
    }
    return out;
  } catch {
    return [];
  }
}

/** `core.hooksPath` from a git config file, resolved as git resolves it. */
function readHooksPath(config: string, worktree: string, home: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(config, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^\s*hookspath\s*=\s*"?([^"\n]+?)"?\s*$/im.exec(text);
  if (!m) return undefined;
  const v = m[1]!.trim();
  return v.startsWith('~/') ? path.join(home, v.slice(2)) : path.resolve(worktree, v);
}

/** Submodule git folders under `.git/modules` (nested ones too), bounded. */
function submoduleDirs(modules: string): string[] {
  const out: string[] = [];
  const stack: Array<{ dir: string; depth: number }> = [{ dir: modules, depth: 0 }];
  while (stack.length && out.length < 500) {
    const { dir, depth } = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    if (names.includes('HEAD') && names.includes('config')) out.push(dir);
    if (depth < 6) for (const n of names) if (n !== 'objects' && n !== 'refs' && n !== 'logs') stack.push({ dir: path.join(dir, n), depth: depth + 1 });
  }
  return out;
}
