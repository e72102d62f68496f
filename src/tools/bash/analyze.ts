/**
 * What a command line will run, as the permission rules need to see it: every simple command, with
 * wrappers unwrapped (`timeout 5 rm x` → `rm x`), code strings parsed again (`sh -c '…'`, `eval`,
 * `xargs`, `find -exec`, here-docs and literal pipes into a shell) and anything that cannot be read
 * statically listed in `problems`.
 *
 * Each result is a Leaf: the words that run, the text an allow rule must cover (none when the
 * command may never be approved by a rule), and every text a deny or ask rule is tried against.
 */
import path from 'node:path';
import { parseScript, type SimpleCommand } from './parse.js';
import { HOLE, joinPatterns, literalWord, type Word } from './words.js';
import {
  ENV_SPEC, SHELLS, WATCH_SPEC, WRAPPERS, XARGS_SPEC, isSafeAssignment, skipOptions, type WrapperSpec,
} from './wrappers.js';

export interface Leaf {
  /** The command that runs, name first, after unwrapping. */
  words: Word[];
  /** Text an allow rule must cover; undefined when no rule may approve this command. */
  allowPattern?: string;
  /** Texts deny and ask rules are tried against (the command and every wrapper around it). */
  denyPatterns: string[];
  /** Why the command runs code it is given (sh -c, eval, xargs…): always asks. */
  runsCode?: string;
  /** Came from a code string rather than the command line itself. */
  nested: boolean;
  /** A guess at what a wrapper runs, kept only for deny and ask matching. */
  denyOnly: boolean;
  source: SimpleCommand;
}

export interface Analysis {
  leaves: Leaf[];
  /** Why the command's effect cannot be read statically. Empty when it can. */
  problems: string[];
  /** Targets of output redirections that write files (/dev/null and friends left out). */
  writes: Word[];
  /** Variables assigned anywhere, prefix assignments included. */
  assigned: string[];
  /** The parsed simple commands of the command line itself (not of nested code). */
  commands: SimpleCommand[];
}

interface Frame {
  outer: string[];
  allowPrefix: string[];
  allow: boolean;
  nested: boolean;
  denyOnly: boolean;
  depth: number;
  source: SimpleCommand;
}

const MAX_NESTING = 5;
const MAX_SUFFIXES = 10;
const CACHE_SIZE = 512;
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);
/** Cached analyses are bounded in number and in the total length of their commands. */
const CACHE_CHARS = 2_000_000;
/** Commands looked at per analysis (wrappers tried, code strings parsed): beyond it, unreadable. */
const MAX_STEPS = 10_000;
const cache = new Map<string, Analysis>();
let cachedChars = 0;

/** Analyse a command line (cached per string). Requires the parser to be initialised. */
export function analyzeBash(command: string): Analysis {
  const hit = cache.get(command);
  if (hit) {
    cache.delete(command);
    cache.set(command, hit);
    return hit;
  }
  const analyzer = new Analyzer();
  const commands = analyzer.script(command, 0, false, false);
  const result: Analysis = { leaves: analyzer.leaves, problems: analyzer.problems, writes: analyzer.writes, assigned: analyzer.assigned, commands };
  cache.set(command, result);
  cachedChars += command.length;
  while (cache.size > CACHE_SIZE || cachedChars > CACHE_CHARS) {
    const oldest = cache.keys().next().value!;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
  return result;
}

class Analyzer {
  leaves: Leaf[] = [];
  problems: string[] = [];
  writes: Word[] = [];
  assigned: string[] = [];

  script(source: string, depth: number, nested: boolean, denyOnly: boolean): SimpleCommand[] {
    if (depth > MAX_NESTING) {
      this.problem('code nested in code too deeply to follow');
      return [];
    }
    const parsed = parseScript(source);
    if (!denyOnly) for (const p of parsed.problems) this.problem(nested ? `in nested code: ${p}` : p);
    this.assigned.push(...parsed.assigned);
    const piped = parsed.commands.some((c) => c.pipedFrom !== undefined);
    for (const cmd of parsed.commands) {
      this.collectWrites(cmd);
      if (!cmd.words.length) continue;
      this.assigned.push(...cmd.assignments.map((a) => /^[^=+]*/.exec(a.raw)![0]));
      const unsafe = cmd.assignments.filter((a) => !isSafeAssignment(a)).map((a) => a.pattern);
      const frame: Frame = { outer: [], allowPrefix: unsafe, allow: true, nested, denyOnly, depth, source: cmd };
      if (cmd.assignments.length) frame.outer.push([...cmd.assignments.map((a) => a.pattern), joinPatterns(cmd.words)].join(' '));
      this.words(cmd.words, frame, piped);
    }
    return parsed.commands;
  }

  private problem(text: string): void {
    if (!this.problems.includes(text)) this.problems.push(text);
  }

  private collectWrites(cmd: SimpleCommand): void {
    for (const r of cmd.redirects) {
      if (r.kind !== 'write' || !r.target) continue;
      if (r.target.literal && HARMLESS_TARGETS.has(r.target.value)) continue;
      this.writes.push(r.target);
    }
  }

  private steps = 0;

  private words(words: Word[], frame: Frame, piped: boolean): void {
    if (++this.steps > MAX_STEPS) return this.problem('too many commands to read');
    const name = words[0]!;
    const views = viewsOf(words);
    if (!name.literal) {
      this.problem(`the command name comes from ${name.raw}, which is only known when it runs`);
      return this.leaf(words, { ...frame, allow: false }, views);
    }
    const base = path.posix.basename(name.value);
    const inner: Frame = { ...frame, outer: [...frame.outer, ...views] };
    if (SHELLS.has(base)) return this.shell(words, frame, inner, views, piped);
    switch (base) {
      case 'eval':
        this.leaf(words, frame, views, 'eval runs its arguments as code');
        return this.code(words.slice(1), inner, 'eval');
      case 'source':
      case '.':
        if (words.slice(1).some((w) => !w.literal)) this.problem(`${base} runs code from a file only known when it runs`);
        return this.leaf(words, frame, views, `${base} runs the commands in a file`);
      case 'xargs':
        return this.xargs(words, frame, inner, views, piped);
      case 'find':
        return this.find(words, frame, inner, views, piped);
      case 'watch':
        return this.watch(words, frame, inner, views, piped);
      case 'env':
        return this.env(words, frame, inner, views, piped);
      case 'trap':
      case 'alias':
        return this.deferred(words, frame, inner, views, base);
      case 'command':
        if (words.slice(1).some((w) => /^-[pvV]*[vV]/.test(w.value))) return this.leaf(words, frame, views);
    }
    const spec = WRAPPERS[base];
    if (spec) return this.wrapper(words, spec, frame, inner, views, piped);
    this.leaf(words, frame, views);
  }

  private leaf(words: Word[], frame: Frame, views: string[], runsCode?: string): void {
    const allow = frame.allow && !runsCode && !frame.denyOnly;
    this.leaves.push({
      words,
      ...(allow ? { allowPattern: [...frame.allowPrefix, joinPatterns(words)].join(' ') } : {}),
      denyPatterns: [...frame.outer, ...views],
      ...(runsCode ? { runsCode } : {}),
      nested: frame.nested,
      denyOnly: frame.denyOnly,
      source: frame.source,
    });
  }

  private wrapper(words: Word[], spec: WrapperSpec, frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    const name = words[0]!.value;
    const start = skipOptions(words, spec);
    if (start < 0) {
      this.leaf(words, { ...frame, allow: spec.kind === 'privileged' && frame.allow }, views, spec.kind === 'runner' ? `${name} runs the command it is given` : undefined);
      return this.suffixes(words, inner, piped);
    }
    if (start >= words.length) return this.leaf(words, frame, views);
    const rest = words.slice(start);
    if (spec.kind === 'transparent') return this.words(rest, inner, piped);
    if (spec.kind === 'runner') this.leaf(words, frame, views, `${name} runs the command it is given`);
    else this.leaf(words, frame, views);
    this.words(rest, spec.kind === 'privileged' ? { ...inner, allow: false, denyOnly: true } : inner, piped);
  }

  /** Options not understood: try every later argument as the start of the command (deny/ask only). */
  private suffixes(words: Word[], frame: Frame, piped: boolean): void {
    const guess: Frame = { ...frame, allow: false, denyOnly: true };
    for (let i = 1; i < words.length && i <= MAX_SUFFIXES; i++) {
      const w = words[i]!;
      if (w.literal && w.value.startsWith('-')) continue;
      this.words(words.slice(i), guess, piped);
      if (w.literal && /[\s;&|`$()<>]/.test(w.value)) this.script(w.value, frame.depth + 1, true, true);
    }
  }

  /** Words handed over as code (`eval a b` runs "a b"). */
  private code(args: Word[], frame: Frame, who: string): void {
    if (!args.length) return;
    if (args.some((w) => !w.literal)) {
      this.problem(`${who} runs text that is only known when it runs`);
      return;
    }
    this.script(args.map((w) => w.value).join(' '), frame.depth + 1, true, frame.denyOnly);
  }

  private shell(words: Word[], frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    const name = words[0]!.value;
    let i = 1;
    let hasC = false;
    for (; i < words.length; i++) {
      const w = words[i]!;
      if (!w.literal && hasC) break;
      if (!w.literal) {
        this.problem(`the options of ${name} are only known when it runs`);
        return this.leaf(words, frame, views, `${name} runs code`);
      }
      if (w.value === '--' || w.value === '-') {
        i++;
        break;
      }
      if (w.value === '--rcfile' || w.value === '--init-file') i++;
      else if (/^[-+][a-zA-Z]+$/.test(w.value)) {
        if (w.value.startsWith('-') && w.value.includes('c')) hasC = true;
        if (/[oO]$/.test(w.value)) i++;
      } else if (!w.value.startsWith('--')) break;
    }
    if (hasC) {
      this.leaf(words, frame, views, `${name} -c runs a string as code`);
      return this.code(words.slice(i, i + 1), inner, `${name} -c`);
    }
    if (i < words.length) return this.leaf(words, frame, views);
    this.leaf(words, frame, views, `${name} runs the commands it reads from its input`);
    this.stdinCode(frame.source, inner, name, piped);
  }

  /** A shell reading commands from stdin: a here-doc, a here-string or a pipe. */
  private stdinCode(cmd: SimpleCommand, frame: Frame, name: string, piped: boolean): void {
    const fed = cmd.redirects.find((r) => r.kind === 'heredoc' || r.kind === 'herestring');
    if (fed) {
      if (fed.bodyLiteral) this.script(fed.body ?? '', frame.depth + 1, true, frame.denyOnly);
      else this.problem(`the text fed to ${name} is only known when it runs`);
      return;
    }
    if (cmd.redirects.some((r) => r.kind === 'read')) return;
    const from = cmd.pipedFrom;
    if (from === undefined) {
      if (piped) this.problem(`${name} may read commands from a pipe whose content is only known when it runs`);
      return;
    }
    const text = from === 'opaque' ? undefined : literalOutput(from);
    if (text === undefined) this.problem(`a pipe feeds ${name} commands that are only known when it runs`);
    else this.script(text, frame.depth + 1, true, frame.denyOnly);
  }

  private xargs(words: Word[], frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    this.leaf(words, frame, views, 'xargs runs a command built from its input');
    const start = skipOptions(words, XARGS_SPEC);
    if (start < 0) return this.suffixes(words, inner, piped);
    const rest = start < words.length ? words.slice(start) : [literalWord('echo')];
    const repl = replacement(words.slice(1, start));
    const filled = repl
      ? rest.map((w) => (w.pattern.includes(repl) ? { ...w, literal: false, pattern: w.pattern.split(repl).join(HOLE) } : w))
      : [...rest, { raw: '(input)', value: '(input)', pattern: HOLE, literal: false }];
    this.words(filled, inner, piped);
  }

  private find(words: Word[], frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    let runs: string | undefined;
    for (let i = 1; i < words.length; i++) {
      const w = words[i]!.value;
      if (w === '-delete') runs ??= 'find -delete removes what it finds';
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(w)) continue;
      runs = `find ${w} runs a command for each file`;
      let j = i + 1;
      while (j < words.length && words[j]!.value !== ';' && words[j]!.value !== '+') j++;
      const cmd = words.slice(i + 1, j).map((x) => (x.pattern.includes('{}') ? { ...x, literal: false, pattern: x.pattern.split('{}').join(HOLE) } : x));
      if (cmd.length) this.words(cmd, inner, piped);
      i = j;
    }
    this.leaf(words, frame, views, runs);
  }

  private watch(words: Word[], frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    this.leaf(words, frame, views, 'watch runs a command repeatedly');
    const start = skipOptions(words, WATCH_SPEC);
    if (start < 0) return this.suffixes(words, inner, piped);
    const rest = words.slice(start);
    if (words.slice(1, start).some((w) => w.value === '-x' || w.value === '--exec')) {
      if (rest.length) this.words(rest, inner, piped);
    } else this.code(rest, inner, 'watch');
  }

  private env(words: Word[], frame: Frame, inner: Frame, views: string[], piped: boolean): void {
    const start = skipOptions(words, ENV_SPEC);
    if (start < 0) {
      this.leaf(words, { ...frame, allow: false }, views, 'env runs a command it is given');
      return this.suffixes(words, inner, piped);
    }
    let i = start;
    const unsafe: string[] = [];
    for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.raw); i++) {
      this.assigned.push(words[i]!.raw.split('=', 1)[0]!);
      if (!isSafeAssignment(words[i]!)) unsafe.push(words[i]!.pattern);
    }
    if (i >= words.length) return this.leaf(words, frame, views);
    const next = { ...inner, allowPrefix: [...frame.allowPrefix, ...unsafe], allow: frame.allow && start === 1 };
    this.words(words.slice(i), next, piped);
  }

  /** `trap 'code' EXIT`, `alias ls='rm -rf x'`: code that runs later. */
  private deferred(words: Word[], frame: Frame, inner: Frame, views: string[], name: string): void {
    this.leaf(words, frame, views, `${name} stores code that runs later`);
    const args = words.slice(1).filter((w) => !w.value.startsWith('-'));
    if (name === 'trap') {
      if (args.length >= 2) this.code(args.slice(0, 1), inner, 'trap');
      return;
    }
    for (const a of args) {
      const eq = a.value.indexOf('=');
      if (eq > 0) this.code([{ ...a, value: a.value.slice(eq + 1) }], inner, 'alias');
    }
  }
}

/**
 * The texts a rule may be matched against: as written, with `/bin/rm` seen as `rm`, and for git
 * without its global options (`git -C dir push` is `git push`).
 */
function viewsOf(words: Word[]): string[] {
  const views = [joinPatterns(words)];
  const name = words[0]!;
  if (!name.literal) return views;
  const base = path.posix.basename(name.value);
  const rest = base === 'git' ? withoutGitGlobals(words.slice(1)) : words.slice(1);
  if (base !== name.value || rest.length !== words.length - 1) views.push([base, ...rest.map((w) => w.pattern)].join(' '));
  return views;
}

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

function withoutGitGlobals(args: Word[]): Word[] {
  let i = 0;
  while (i < args.length && args[i]!.value.startsWith('-')) i += GIT_VALUE_OPTIONS.has(args[i]!.value) ? 2 : 1;
  return args.slice(i);
}

/** What `echo`/`printf`/`cat <<'EOF'` write, when it is fully known. */
function literalOutput(cmd: SimpleCommand): string | undefined {
  const [name, ...args] = cmd.words;
  if (!name?.literal || args.some((w) => !w.literal)) return undefined;
  if (name.value === 'echo') {
    const flags = args.filter((w, i) => /^-[neE]+$/.test(w.value) && args.slice(0, i).every((x) => /^-[neE]+$/.test(x.value)));
    const text = args.slice(flags.length).map((w) => w.value).join(' ');
    return flags.some((f) => f.value.includes('e')) && text.includes('\\') ? undefined : text;
  }
  if (name.value === 'printf' && args.length === 1 && !/[%\\]/.test(args[0]!.value)) return args[0]!.value;
  if (name.value === 'cat' && args.length === 0) {
    const doc = cmd.redirects.find((r) => r.kind === 'heredoc' || r.kind === 'herestring');
    return doc?.bodyLiteral ? doc.body : undefined;
  }
  return undefined;
}

/** `xargs -I {}` / `-i` / `--replace=R`: the text replaced by each input item. */
function replacement(opts: Word[]): string | undefined {
  for (let i = 0; i < opts.length; i++) {
    const v = opts[i]!.value;
    if (v === '-I') return opts[i + 1]?.value;
    if (v.startsWith('-I')) return v.slice(2);
    if (v === '-i' || v === '--replace') return '{}';
    if (v.startsWith('-i')) return v.slice(2);
    if (v.startsWith('--replace=')) return v.slice('--replace='.length);
  }
  return undefined;
}
