/**
 * The files a command line reads and writes, as far as the commands are known: path arguments of
 * read-only commands (`cat`, `grep`, `head`…), of common file commands (`rm`, `cp`, `mv`, `touch`,
 * `tee`, `sed -i`…) and redirection targets. A `cd` is followed through the line. Paths only known
 * at run time come back as `undefined`.
 *
 * Used for Read(...)/Edit(...) rules on Bash (`Read(./.env)` also stops `cat .env`), the
 * outside-the-project check of read-only commands, and protected paths.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { deniedPathRule } from '../../permissions/path-rules.js';
import { deniedUnder } from '../../permissions/denied-under.js';
import { parseRule, type ParsedRule } from '../../base/rule-parse.js';
import { emptyRules } from '../../base/permission-types.js';
import { isInside, isInWorkspace } from '../../base/paths.js';
import { protectedReason } from '../../permissions/protected.js';
import type { PermissionContext, PermissionPaths } from '../../base/tool.js';
import type { Analysis, Leaf } from './analysis.js';
import { isReadOnlyLeaf } from './classify.js';
import { expandGlob } from './glob.js';
import { pathArguments, resolvePathWord } from './read-only.js';
import { literalWord, type Word } from './words.js';

export interface FileAccess {
  /** Absolute path, or undefined when only known at run time. */
  path: string | undefined;
  access: 'read' | 'write';
}

interface Where {
  cwd: string;
  homeDir: string;
}

const HARMLESS = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty']);
/** Every operand is written (created, changed or removed). */
const WRITES_ALL = new Set(['rm', 'rmdir', 'touch', 'mkdir', 'tee', 'truncate', 'shred', 'chmod', 'chown', 'chgrp', 'unlink', 'mv']);
/** The last operand is written, the others read. */
const WRITES_LAST = new Set(['cp', 'ln', 'install', 'rsync']);

export interface AccessOptions {
  /** Also the commands a wrapper may run, guessed from options it does not know (deny checks). */
  guesses?: boolean;
  /**
   * Also every argument of other commands that names a file (`awk 1 f`, `zip o.zip f`,
   * `dd if=f`, `curl -d @f`): for deny rules, a command naming a denied file is refused whatever it is.
   */
  mentions?: boolean;
  /** Only these leaves' accesses (the working directory still follows every `cd`); redirections that write are left out. */
  only?: ReadonlySet<Leaf>;
}

export function fileAccesses(a: Analysis, where: Where, opts: AccessOptions = {}): FileAccess[] {
  const out: FileAccess[] = [];
  /** `mention`: a word that may or may not name a file (an argument of any command). */
  const add = (w: Word, access: FileAccess['access'], cwd: string | undefined, mention = false): void => {
    if (w.item) return; // each file find/xargs feeds: checked as a tree read (tree-access.ts)
    if (w.glob !== undefined && cwd !== undefined && !/[$`]/.test(w.raw)) {
      const files = expandGlob(w.glob, cwd, where.homeDir);
      if (files === undefined) out.push({ path: undefined, access });
      for (const f of files ?? []) if (!HARMLESS.has(f)) out.push({ path: f, access });
      return;
    }
    const p = w.value === '-' && !w.raw.includes('/') ? undefined : resolvePathWord(w, cwd, where.homeDir);
    // An argument counts as a file when it looks like a path or names one that exists (`npm run
    // secrets` is not `./secrets` unless that is there).
    if (mention && (p === undefined || (!w.value.includes('/') && !existsOnDisk(p)))) return;
    if (p === undefined || !HARMLESS.has(p)) out.push({ path: p, access });
  };
  forEachLeaf(
    a,
    where,
    (leaf, cwd) => {
      if (opts.only && !opts.only.has(leaf)) return;
      const name = path.posix.basename(leaf.words[0]?.value ?? '');
      for (const r of leaf.source.redirects) if (r.kind === 'read' && r.target) add(r.target, 'read', cwd);
      if (opts.mentions) for (const w of fileUrls(leaf.words)) add(w, 'read', cwd);
      // git's paths (`git show HEAD:f`, `git log -p -- f`) count as mentions: its read-only forms print files too.
      if (isReadOnlyLeaf(leaf) && name !== 'git') for (const w of pathArguments(leaf.words)) add(w, 'read', cwd);
      else if (isReadOnlyLeaf(leaf)) {
        for (const w of pathArguments(leaf.words)) add(w, 'read', cwd);
        if (opts.mentions) for (const w of mentionedPaths(leaf.words)) add(w, 'read', cwd, true);
      } else {
        const known = operandAccesses(name, leaf.words.slice(1));
        for (const f of known) add(f.word, f.access, cwd);
        if (!opts.mentions) return;
        // A program whose files are not known exactly may write any file it names (`dd of=f`,
        // `perl -pi … f`, `open('f', 'w')`, sed's `w f`): for deny rules, a mention is a read and a write.
        const onlyRead = new Set(known.filter((f) => f.access === 'read').map((f) => f.word));
        for (const w of mentionedPaths(leaf.words, name !== 'git')) {
          add(w, 'read', cwd, true);
          if (!onlyRead.has(w)) add(w, 'write', cwd, true);
        }
      }
    },
    opts.guesses,
  );
  if (!opts.only) for (const w of a.writes) add(w, 'write', where.cwd);
  return out;
}

function safeDecode(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

function existsOnDisk(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The words of a command that may name a file: its arguments (and its name when it is a path),
 * the value of `--opt=value` and `key=value`, and what follows `@` (`curl -d @file`). Only literal
 * words and globs: a variable is not followed here.
 */
/**
 * The files `file://` URLs name (curl, wget, a browser): read whatever the program, and a URL whose
 * path is only known when it runs (`file://$PWD/x`) is an unknown path.
 */
function fileUrls(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words.slice(1)) {
    const at = w.value.search(/file:\/\//i);
    if (at < 0) continue;
    const url = /^file:\/\/(?:localhost)?(\/[^?#]*)/i.exec(w.value.slice(at));
    if (w.literal && url) out.push(literalWord(safeDecode(url[1]!)));
    else out.push({ ...w, raw: '$unknown', value: '', literal: false, pattern: '', glob: undefined });
  }
  return out;
}

function mentionedPaths(words: Word[], tokens = false): Word[] {
  const out: Word[] = [];
  for (const [i, w] of words.entries()) {
    if (i === 0 && !w.value.includes('/')) continue;
    if (!w.literal && w.glob === undefined) continue;
    // perl's two-argument open (`">f"`, `"+<f"`, `"< .env"`) and the like: the file after the mode.
    const mode = /^[+<>|&]+\s*([^\s<>|&].*)$/.exec(w.value);
    if (mode && w.literal) out.push(literalWord(mode[1]!));
    if (w.value === '' || w.value === '-' || (/\s/.test(w.value) && !w.value.includes('/'))) continue;
    out.push(w);
    // A script or command text given as one word (`sed 's/a/b/w out'`): each piece naming a folder.
    if (tokens && w.literal && /\s/.test(w.value))
      for (const t of w.value.split(/\s+/)) if (t.includes('/') && t !== w.value) out.push(literalWord(t.replace(/^["'(]+|["'),;]+$/g, '')));
    const eq = /^[^=/]*=(.+)$/.exec(w.value);
    if (eq && w.literal) out.push({ ...w, value: eq[1]!, pattern: eq[1]! });
    const at = /^[^@]*@(.+)$/.exec(w.value);
    if (at && w.literal) out.push({ ...w, value: at[1]!, pattern: at[1]! });
    // git's `HEAD:path`, `:path`, `:0:path` (the file as a revision holds it).
    const rev = /^[^:/\s]*:(?:\d:)?(.+)$/.exec(w.value);
    if (rev && w.literal) out.push({ ...w, value: rev[1]!, pattern: rev[1]! });
  }
  return out;
}

/**
 * Each leaf the line runs for real (guesses left out unless asked for) with the directory it runs in: a top-level
 * `cd`/`pushd` moves it for what follows; `popd` or `cd -` make it unknown.
 */
export function forEachLeaf(a: Analysis, where: Where, fn: (leaf: Leaf, cwd: string | undefined) => void, guesses = false): void {
  let cwd: string | undefined = where.cwd;
  for (const leaf of a.leaves) {
    if (leaf.denyOnly && !guesses) continue;
    const name = path.posix.basename(leaf.words[0]?.value ?? '');
    fn(leaf, cwd);
    if ((name === 'cd' || name === 'pushd') && isReadOnlyLeaf(leaf) && leaf.source.topLevel) {
      const target = pathArguments(leaf.words)[0];
      cwd = target && target.value !== '-' ? resolvePathWord(target, cwd, where.homeDir) : undefined;
    }
    if (name === 'popd') cwd = undefined;
  }
}

function operandAccesses(name: string, args: Word[]): Array<{ word: Word; access: FileAccess['access'] }> {
  const operands = args.filter((w) => !w.value.startsWith('-'));
  // `cp -t dir f`, `ln --target-directory=dir f`: the folder given to the option is written.
  if (WRITES_LAST.has(name) && args.some((w) => /^(-[A-Za-z]*t|--target-directory)/.test(w.value))) return operands.map((word) => ({ word, access: 'write' }));
  // A link is a second name to write through: what it points to counts as written (linkTargets).
  if (name === 'ln') return operands.map((word) => ({ word, access: 'write' }));
  if (WRITES_ALL.has(name)) return operands.slice(name === 'chmod' || name === 'chown' || name === 'chgrp' ? 1 : 0).map((word) => ({ word, access: 'write' }));
  if (WRITES_LAST.has(name)) return operands.map((word, i) => ({ word, access: i === operands.length - 1 ? 'write' : 'read' }));
  if (name === 'sed' && args.some((w) => /^-[a-zA-Z]*i/.test(w.value) || w.value.startsWith('--in-place'))) {
    return operands.slice(1).map((word) => ({ word, access: 'write' }));
  }
  return [];
}

/**
 * For Tool.permissionPaths: the files of a line made only of read-only commands (writes through
 * redirections allowed), so Read/Edit rules, protected paths and symlink checks apply centrally.
 * Lines with other commands give none: an allow rule for a path must never approve them.
 */
export function bashPermissionPaths(a: Analysis, ctx: PermissionContext): PermissionPaths | undefined {
  if (a.problems.length || !a.leaves.every((l) => l.denyOnly || isReadOnlyLeaf(l))) return undefined;
  const files = fileAccesses(a, ctx);
  const known = files.filter((f) => f.path !== undefined);
  if (!known.length) return undefined;
  const access = files.some((f) => f.access === 'write') ? 'write' : 'read';
  return { access, paths: [...new Set(known.map((f) => f.path!))] };
}

/** The file a permission prompt names for the line: the first it writes, else the first it reads. */
export function bashAskPath(a: Analysis, ctx: PermissionContext): string | undefined {
  const known = fileAccesses(a, ctx).filter((f) => f.path !== undefined);
  return (known.find((f) => f.access === 'write') ?? known[0])?.path;
}

/**
 * Read(...)/Edit(...) deny rules from the merged settings, applied to every file the line touches
 * (the engine only applies them to lines that bashPermissionPaths describes). A path only known at
 * run time meets the first such rule: fail closed.
 */
export function settingsPathDeny(a: Analysis, ctx: PermissionContext): ParsedRule | undefined {
  const rules = emptyRules();
  rules.deny = pathDenyRules(ctx, ['Read', 'Edit']);
  if (!rules.deny.length) return undefined;
  for (const f of fileAccesses(a, ctx, { guesses: true, mentions: true })) {
    if (f.path === undefined) {
      const any = rules.deny.find((r) => f.access === 'write' || r.toolName === 'Read');
      if (any) return any;
      continue;
    }
    const hit = deniedPathRule(f.path, f.access, rules, ctx);
    if (hit) return hit;
  }
  return linkToDenied(a, ctx, rules.deny);
}

/**
 * `ln -s . p && cat p/.env`: a link made to a folder holding a denied path gives the rest of the
 * line (and later calls) a name for it that no rule spells. Refused like a read of that folder.
 */
function linkToDenied(a: Analysis, ctx: PermissionContext, deny: readonly ParsedRule[]): ParsedRule | undefined {
  // Edit rules guard the same paths against writes through the link: checked as if they were Read rules.
  const asRead = deny.map((r) => (r.toolName === 'Read' ? r : { ...r, toolName: 'Read' }));
  let found: ParsedRule | undefined;
  forEachLeaf(
    a,
    ctx,
    (leaf, cwd) => {
      const name = path.posix.basename(leaf.words[0]?.value ?? '');
      const args = leaf.words.slice(1);
      const links = name === 'ln' || ((name === 'cp' || name === 'gcp') && args.some((w) => /^(-[A-Za-z]*[sl]|--symbolic-link|--link)$/.test(w.value)));
      if (found || !links) return;
      const operands = args.filter((w) => !w.value.startsWith('-'));
      const last = operands.at(-1);
      const linkDir = last && cwd !== undefined ? resolvePathWord(last, cwd, ctx.homeDir) : undefined;
      for (const w of operands.length > 1 ? operands.slice(0, -1) : operands) {
        const bases = [cwd, linkDir && path.dirname(linkDir), linkDir];
        for (const base of bases) {
          const target = base === undefined ? undefined : resolvePathWord(w, base, ctx.homeDir);
          const hit = target === undefined ? { rule: asRead[0]! } : deniedUnder(target, asRead, ctx, false);
          if (hit) found = deny[asRead.indexOf(hit.rule)] ?? deny[0];
        }
      }
    },
    true,
  );
  return found;
}

/** The Read/Edit deny rules in force: the session's, or those of the merged settings. */
export function pathDenyRules(ctx: PermissionContext, tools: readonly string[]): ParsedRule[] {
  const deny = ctx.rules?.deny ?? denyStrings(ctx.settings).map((s) => parseRule(s, 'projectSettings'));
  return deny.filter((r) => tools.includes(r.toolName) && r.specifier !== undefined && !r.error);
}

function denyStrings(settings: Record<string, unknown>): string[] {
  const perms = settings.permissions;
  if (!perms || typeof perms !== 'object') return [];
  const deny = (perms as Record<string, unknown>).deny;
  return Array.isArray(deny) ? deny.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Files a read-only line reads outside the project and additional directories (undefined: a path
 * only known at run time).
 */
export function pathsOutsideWorkspace(a: Analysis, ctx: PermissionContext, only?: ReadonlySet<Leaf>): Array<string | undefined> {
  return fileAccesses(a, ctx, only ? { only } : {})
    .filter((f) => f.path === undefined || !isInWorkspace(f.path, ctx))
    .map((f) => f.path);
}

/**
 * What the read-only commands among `leaves` (every command of the line by default) read outside
 * the project and additional directories: the permission gate names these paths, and an allow rule
 * for another command of the line does not approve them.
 */
export function readsOutsideWorkspace(a: Analysis, ctx: PermissionContext, leaves: Iterable<Leaf> = a.leaves): Array<string | undefined> {
  const readers = new Set([...leaves].filter((l) => !l.denyOnly && isReadOnlyLeaf(l)));
  return readers.size ? pathsOutsideWorkspace(a, ctx, readers) : [];
}

/** Commands acceptEdits mode approves on in-scope paths (reference/claude-code.md §3). */
const ACCEPT_EDITS = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);

/**
 * acceptEdits: a line of read-only commands and the file commands above, every file known, inside
 * the workspace and not protected.
 */
export function acceptEditsCovers(a: Analysis, ctx: PermissionContext): boolean {
  if (a.problems.length) return false;
  const commandsOk = a.leaves.every((l) => l.denyOnly || isReadOnlyLeaf(l) || (!l.runsCode && ACCEPT_EDITS.has(l.words[0]?.value ?? '')));
  if (!commandsOk) return false;
  return fileAccesses(a, ctx).every((f) => f.path !== undefined && isInWorkspace(f.path, ctx) && !protectedReason(f.path, ctx));
}

/**
 * `rm`/`rmdir` of a critical path: `/`, a direct child of `/`, the home directory, the working
 * directory or one of its parents, or a path starting with a variable (`rm -rf "$X"/*`).
 * No rule and no mode short of bypass approves these.
 */
export function criticalRemoval(a: Analysis, ctx: PermissionContext): string | undefined {
  for (const leaf of a.leaves) {
    const name = path.posix.basename(leaf.words[0]?.value ?? '');
    if (name !== 'rm' && name !== 'rmdir') continue;
    for (const w of leaf.words.slice(1).filter((x) => !x.value.startsWith('-'))) {
      if (/^["']?[$`]/.test(w.raw)) return `${name} ${w.raw}: the path comes from a variable or substitution`;
      const p = resolvePathWord(w, ctx.cwd, ctx.homeDir);
      if (p === undefined) continue;
      const critical = w.literal
        ? p === '/' || path.dirname(p) === '/' || p === ctx.homeDir || isInside(ctx.cwd, p)
        : p === '/' || p === ctx.homeDir || (isInside(ctx.cwd, p) && p !== ctx.cwd);
      if (critical) return `${name} ${w.raw} would remove ${w.literal ? p : `everything in ${p}`}`;
    }
  }
  return undefined;
}
