/**
 * The permission rules, as paths bubblewrap can mask. `Read(...)` deny rules (and
 * `sandbox.filesystem.denyRead`) become paths the sandbox cannot read; `Edit(...)` deny rules (and
 * `sandbox.filesystem.denyWrite`) paths it cannot change. Rules are glob patterns with Claude Code's
 * anchors (permissions/path-rules.ts); bubblewrap masks concrete paths, so each rule is expanded,
 * for every command, to what exists now:
 * - a pattern without wildcards names its path (letter case ignored, as deny rules ignore it);
 * - `dir/**` names the folder itself;
 * - a pattern with wildcards is matched against every file below its fixed part (`./config/*.key`
 *   lists `config/`), links followed;
 * - a loose pattern (`.env`, `**\/*.pem`, `secrets/**`) matches at any depth: it is matched below
 *   every writable folder, the working folder and the home folder (elsewhere, name the path:
 *   `Read(//opt/app/.env)` or `sandbox.filesystem.denyRead`).
 * A folder that matches is masked whole. The same matcher as the file tools' decides
 * (compilePathRule), so the sandbox and the tools agree on what a rule covers. A pattern that cannot
 * be expanded (its fixed part is `/`, or the listing does not finish in time) is a problem: the
 * sandbox then refuses to run the command and says why.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { compilePathRule } from '../permissions/path-pattern.js';
import type { ParsedRule } from '../base/rule-parse.js';
import { formatRule } from '../base/rule-parse.js';
import { ruleAnchorRoot } from '../settings/paths.js';
import { isInside } from '../base/paths.js';
import { listFiles, type FileList } from './walk.js';

export interface DenyContext {
  cwd: string;
  projectRoot: string;
  homeDir: string;
  writableRoots: readonly string[];
  /** When every listing must be done (ms since the epoch). */
  deadline: number;
}

export interface MissingPath {
  path: string;
  kind: 'file' | 'dir';
}

/** An existing path (its real location) and the rule that names it. */
export interface Target {
  path: string;
  rule: string;
}

export interface DenyTargets {
  /** Existing paths the sandbox must not read. */
  read: Target[];
  /** Existing paths it must not change. */
  write: Target[];
  /** Paths a write-deny rule names that do not exist yet: kept from being created. */
  writeMissing: MissingPath[];
  /** Why the rules cannot be turned into masks (the command must not run). */
  problems: string[];
}

const GLOB = /[*?[\]{}]/;

/** The deny rules the sandbox enforces: Read and Edit rules with a path, and the sandbox's own lists. */
export function sandboxDenyRules(
  deny: readonly ParsedRule[],
  denyRead: readonly string[],
  denyWrite: readonly string[],
): { read: ParsedRule[]; write: ParsedRule[] } {
  const usable = deny.filter((r) => !r.error && r.specifier !== undefined);
  const own = (toolName: string, abs: string): ParsedRule => ({ raw: `sandbox:${abs}`, toolName, specifier: `/${abs}`, source: 'session' });
  return {
    read: [...usable.filter((r) => r.toolName === 'Read'), ...denyRead.map((p) => own('Read', p))],
    write: [...usable.filter((r) => r.toolName === 'Edit'), ...denyWrite.map((p) => own('Edit', p))],
  };
}

export async function denyTargets(rules: { read: ParsedRule[]; write: ParsedRule[] }, ctx: DenyContext): Promise<DenyTargets> {
  const out: DenyTargets = { read: [], write: [], writeMissing: [], problems: [] };
  const lister = new Lister(ctx.deadline);
  for (const [rule, access] of [...rules.read.map((r) => [r, 'read'] as const), ...rules.write.map((r) => [r, 'write'] as const)]) {
    const found = await expandRule(rule, access, ctx, lister);
    if (found.problem) out.problems.push(found.problem);
    const name = ruleName(rule, access);
    (access === 'read' ? out.read : out.write).push(...unique(found.existing).map((p) => ({ path: p, rule: name })));
    out.writeMissing.push(...found.missing);
  }
  return out;
}

interface Expansion {
  existing: string[];
  missing: MissingPath[];
  problem?: string;
}

interface Anchored {
  anchors: string[];
  body: string;
  loose: boolean;
}

/** As permissions/path-rules.ts anchors a pattern. */
function anchorOf(rule: ParsedRule, ctx: DenyContext): Anchored {
  const spec = rule.specifier ?? '';
  const relative = ctx.cwd === ctx.projectRoot ? [ctx.projectRoot] : [ctx.projectRoot, ctx.cwd];
  const home = /^(~|\$HOME|\$\{HOME\})(\/|$)/.exec(spec);
  if (spec.startsWith('//')) return { anchors: ['/'], body: spec.slice(2), loose: false };
  if (home) return { anchors: [ctx.homeDir], body: spec.slice(home[0].length), loose: false };
  if (spec.startsWith('/')) return { anchors: [ruleAnchorRoot(rule.source, rule.sourcePath, ctx.projectRoot)], body: spec.slice(1), loose: false };
  const dotted = spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..';
  return { anchors: relative, body: spec, loose: !dotted };
}

async function expandRule(rule: ParsedRule, access: 'read' | 'write', ctx: DenyContext, lister: Lister): Promise<Expansion> {
  const { anchors, body: raw, loose } = anchorOf(rule, ctx);
  const body = raw.replace(/\/+$/, '');
  const segments = body === '' ? [] : body.split('/');
  const firstGlob = segments.findIndex((s) => GLOB.test(s));
  const literal = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  const rest = firstGlob === -1 ? [] : segments.slice(firstGlob);
  const matcher = compilePathRule(rule, 'deny', ctx);
  const out: Expansion = { existing: [], missing: [] };
  const bases = anchors.flatMap((a) => resolveNoCase(a, literal));
  if (rest.every((s) => s === '**')) {
    for (const base of bases) {
      const real = realOf(base);
      if (real) out.existing.push(real);
      else if (access === 'write') out.missing.push({ path: base, kind: rest.length || raw.endsWith('/') ? 'dir' : 'file' });
    }
  } else {
    for (const base of bases) {
      if (base === '/')
        return {
          ...out,
          problem: `${ruleName(rule, access)} matches by pattern from the root of the filesystem; the sandbox cannot list every file it covers (name the folders it means)`,
        };
      const listed = await lister.files(base);
      if (!listed.complete) return { ...out, problem: unfinished(ruleName(rule, access), base) };
      out.existing.push(...matching(listed.files, base, matcher));
    }
  }
  if (loose && body !== '') {
    for (const root of lister.looseRoots(ctx)) {
      const listed = await lister.files(root);
      if (!listed.complete) return { ...out, problem: unfinished(ruleName(rule, access), root) };
      out.existing.push(...matching(listed.files, root, matcher));
    }
  }
  return out;
}

/** How a rule is named to the person: as written, or as the sandbox setting it came from. */
function ruleName(rule: ParsedRule, access: 'read' | 'write'): string {
  if (!rule.raw.startsWith('sandbox:')) return formatRule(rule);
  return `sandbox.filesystem.${access === 'read' ? 'denyRead' : 'denyWrite'} ${rule.raw.slice('sandbox:'.length)}`;
}

function unfinished(rule: string, where: string): string {
  return (
    `the sandbox could not list every file ${rule} covers under ${where} in time; ` +
    'anchor the rule to the folders it means (Read(./.env), Read(~/work/**/.env)) or list them in sandbox.filesystem.denyRead'
  );
}

/** For each listed file the rule covers: the highest folder (from `root` down) the rule covers, or the file. */
function matching(files: readonly string[], root: string, matcher: (p: string) => boolean): string[] {
  const out = new Set<string>();
  for (const f of files) {
    if (!matcher(f)) continue;
    let hit = f;
    const rel = path.relative(root, f).split(path.sep);
    for (let i = 0; i <= rel.length; i++) {
      const candidate = path.join(root, ...rel.slice(0, i));
      if (matcher(candidate)) {
        hit = candidate;
        break;
      }
    }
    const real = realOf(hit);
    if (real) out.add(real);
  }
  return [...out];
}

/** Each literal segment matched without regard to case; a segment that matches nothing is kept as written. */
function resolveNoCase(anchor: string, segments: readonly string[]): string[] {
  let current = [path.resolve(anchor)];
  for (const seg of segments) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      current = current.map((d) => path.dirname(d));
      continue;
    }
    const next: string[] = [];
    for (const dir of current) {
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((n) => n.toLowerCase() === seg.toLowerCase());
      } catch {
        // not a folder (yet)
      }
      next.push(...(names.length ? names.map((n) => path.join(dir, n)) : [path.join(dir, seg)]));
    }
    current = unique(next);
  }
  return current;
}

function realOf(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

/** Lists each folder once per launch; a folder inside one already listed is taken from that list. */
class Lister {
  private readonly lists = new Map<string, FileList>();

  constructor(private readonly deadline: number) {}

  looseRoots(ctx: DenyContext): string[] {
    const roots = unique([...ctx.writableRoots, ctx.cwd, ctx.homeDir].map((r) => realOf(r) ?? path.resolve(r)));
    return roots.filter((r) => !roots.some((o) => o !== r && isInside(r, o)));
  }

  async files(dir: string): Promise<FileList> {
    const known = this.lists.get(dir);
    if (known) return known;
    for (const [root, list] of this.lists) {
      if (list.complete && isInside(dir, root)) {
        const prefix = `${dir}${path.sep}`;
        return { files: list.files.filter((f) => f.startsWith(prefix)), complete: true };
      }
    }
    let list: FileList;
    try {
      list = statSync(dir).isDirectory() ? await listFiles(dir, this.deadline) : { files: [], complete: true };
    } catch (err) {
      // Nothing there to list; anything else (ripgrep failing) leaves the listing unfinished.
      list = { files: [], complete: (err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR' };
    }
    this.lists.set(dir, list);
    return list;
  }
}
