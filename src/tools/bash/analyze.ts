/**
 * What a command line will run, as the permission rules need to see it: every simple command, with
 * wrappers unwrapped (`timeout 5 rm x` → `rm x`), code strings parsed again (`sh -c '…'`, `eval`,
 * `xargs`, `find -exec`, here-docs, here-strings and literal pipes into a shell, `source /dev/stdin`,
 * the programs of routes.ts) and anything that cannot be read statically listed in `problems`.
 *
 * Each result is a Leaf: the words that run, the text an allow rule must cover (none when the
 * command may never be approved by a rule), and every text a deny or ask rule is tried against.
 */
import path from 'node:path';
import type { Analysis, Frame, Leaf, Walk } from './analysis.js';
import { parseScript, type SimpleCommand } from './parse.js';
import { ROUTES } from './routes.js';
import { codeFileKind, heredocText, mergeStdin, NO_STDIN, stdinOf, type Stdin } from './stdin.js';
import { joinPatterns, type Word } from './words.js';
import { SHELL_VALUE_VARS, WRAPPERS, isSafeAssignment, skipOptions, type WrapperSpec } from './wrappers.js';

/** Variables holding a program's options rather than a command. */
const OPTION_VARS = new Set(['TAR_OPTIONS', 'GIT_CONFIG_PARAMETERS', 'MAKEFLAGS', 'MFLAGS']);
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
  const commands = analyzer.run(command, { depth: 0, nested: false, denyOnly: false, stdin: NO_STDIN });
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

interface ScriptScope {
  depth: number;
  nested: boolean;
  denyOnly: boolean;
  stdin: Stdin;
}

class Analyzer implements Walk {
  leaves: Leaf[] = [];
  problems: string[] = [];
  writes: Word[] = [];
  assigned: string[] = [];
  private steps = 0;

  run(source: string, scope: ScriptScope): SimpleCommand[] {
    if (scope.depth > MAX_NESTING) {
      this.problem('code nested in code too deeply to follow');
      return [];
    }
    const parsed = parseScript(source);
    if (!scope.denyOnly) for (const p of parsed.problems) this.problem(scope.nested ? `in nested code: ${p}` : p);
    this.assigned.push(...parsed.assigned);
    const piped = parsed.commands.some((c) => c.pipedFrom !== undefined);
    const bare: Frame = { outer: [], allowPrefix: [], allow: true, ...scope, source: EMPTY_COMMAND, piped };
    for (const a of parsed.assignments) this.dataWord(a, bare);
    let stdin = scope.stdin;
    for (const cmd of parsed.commands) {
      this.collectWrites(cmd);
      // `exec <<<'…'` or `exec 3< file`: what later commands of this shell read.
      const bare = isBareExec(cmd);
      if (bare) stdin = mergeStdin(stdin, stdinOf(cmd, NO_STDIN, false));
      if (!cmd.words.length) continue;
      const frame: Frame = {
        outer: [],
        allowPrefix: [],
        allow: true,
        nested: scope.nested,
        denyOnly: scope.denyOnly,
        depth: scope.depth,
        source: cmd,
        stdin,
        piped,
      };
      if (bare) {
        this.leaf(cmd.words, frame, [joinPatterns(cmd.words)]);
        continue;
      }
      this.assignments(cmd.assignments, frame);
      for (const word of cmd.words.slice(1)) this.dataWord(word, frame);
      if (cmd.assignments.length) frame.outer.push([...cmd.assignments.map((a) => a.pattern), joinPatterns(cmd.words)].join(' '));
      this.words(cmd.words, frame);
    }
    return parsed.commands;
  }

  /** Prefix assignments: remembered, kept for allow rules when unsafe, and code when a program runs them. */
  private assignments(list: Word[], frame: Frame): void {
    for (const a of list) {
      const name = /^[^=+]*/.exec(a.raw)![0];
      this.assign(name);
      if (!isSafeAssignment(a)) frame.allowPrefix.push(a.pattern);
      this.dataWord(a, frame);
    }
  }

  /**
   * Quoted text that looks like code (`x='a[$(rm y)]'`, later read by `$((x))`) is parsed for deny
   * and ask rules; a `NAME=value` a program runs as a command (GIT_PAGER…) is parsed as code.
   */
  dataWord(word: Word, frame: Frame): void {
    const name = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(word.raw)?.[1];
    if (name && SHELL_VALUE_VARS.has(name)) this.valueAsCode(word, name, frame);
    else if (word.literal && /\$\(|`/.test(word.value)) this.script(word.value, { ...frame, denyOnly: true });
  }

  /** `GIT_PAGER='rm x' git log`, `BASH_ENV=./x.sh bash -c …`: the value is run as a command or a file. */
  private valueAsCode(a: Word, name: string, frame: Frame): void {
    const value = a.value.slice(a.value.indexOf('=') + 1);
    if (!a.literal) return this.problem(`${name} holds a command only known when it runs`);
    if (name === 'BASH_ENV' || name === 'ENV') return this.problem(`${name} makes the shell run the file ${value} first`);
    if (OPTION_VARS.has(name)) {
      if (/command|exec|program|script|shell|eval|alias|pager|editor|hook|filter|helper|-I/i.test(value))
        this.problem(`${name} passes options that may run commands`);
      return;
    }
    this.script(value.replace(/^!/, ''), { ...frame, denyOnly: true });
  }

  problem(text: string): void {
    if (!this.problems.includes(text)) this.problems.push(text);
  }

  assign(name: string): void {
    this.assigned.push(name);
  }

  private collectWrites(cmd: SimpleCommand): void {
    for (const r of cmd.redirects) {
      if (r.kind !== 'write' || !r.target) continue;
      if (r.target.literal && HARMLESS_TARGETS.has(r.target.value)) continue;
      this.writes.push(r.target);
    }
  }

  words(words: Word[], frame: Frame): void {
    if (++this.steps > MAX_STEPS) return this.problem('too many commands to read');
    const name = words[0]!;
    const views = viewsOf(words);
    if (!name.literal) {
      this.problem(`the command name comes from ${name.raw}, which is only known when it runs`);
      return this.leaf(words, { ...frame, allow: false }, views);
    }
    const base = path.posix.basename(name.value);
    const inner: Frame = { ...frame, outer: [...frame.outer, ...views] };
    const route = ROUTES[base];
    if (route) return route(this, words, frame, inner, views);
    const spec = WRAPPERS[base];
    if (spec) return this.wrapper(words, spec, frame, inner, views);
    this.leaf(words, frame, views);
  }

  leaf(words: Word[], frame: Frame, views: string[], runsCode?: string, scriptFile?: Word): void {
    const allow = frame.allow && !runsCode && !frame.denyOnly;
    this.leaves.push({
      words,
      ...(allow ? { allowPattern: [...frame.allowPrefix, joinPatterns(words)].join(' ') } : {}),
      denyPatterns: [...frame.outer, ...views],
      ...(runsCode ? { runsCode } : {}),
      ...(scriptFile ? { scriptFile } : {}),
      nested: frame.nested,
      denyOnly: frame.denyOnly,
      source: frame.source,
    });
  }

  wrapper(words: Word[], spec: WrapperSpec, frame: Frame, inner: Frame, views: string[]): void {
    const name = words[0]!.value;
    const start = spec.guess ? -1 : skipOptions(words, spec);
    if (start < 0) {
      this.leaf(
        words,
        { ...frame, allow: spec.kind === 'privileged' && frame.allow },
        views,
        spec.kind === 'runner' ? `${name} runs the command it is given` : undefined,
      );
      return this.suffixes(words, inner);
    }
    if (start >= words.length) {
      this.leaf(words, frame, views);
      // `sudo -s`, `sudo -i`, `doas -s` with no command: a shell that reads its input.
      if (spec.kind === 'privileged' && words.slice(1, start).some((w) => /^-[a-zA-Z]*[si]$|^--(shell|login)$/.test(w.value))) this.stdinCode(inner, name);
      return;
    }
    const rest = words.slice(start);
    if (spec.kind === 'transparent') return this.words(rest, inner);
    if (spec.kind === 'runner') this.leaf(words, frame, views, `${name} runs the command it is given`);
    else this.leaf(words, frame, views);
    this.words(rest, spec.kind === 'privileged' ? { ...inner, allow: false, denyOnly: true } : inner);
  }

  suffixes(words: Word[], frame: Frame): void {
    const guess: Frame = { ...frame, allow: false, denyOnly: true };
    for (let i = 1; i < words.length && i <= MAX_SUFFIXES; i++) {
      const w = words[i]!;
      if (w.literal && w.value.startsWith('-')) continue;
      this.words(words.slice(i), guess);
      if (w.literal && /[\s;&|`$()<>]/.test(w.value)) this.script(w.value, guess);
    }
  }

  code(args: Word[], frame: Frame, who: string): void {
    if (!args.length) return;
    if (args.some((w) => !w.literal)) {
      this.problem(`${who} runs text that is only known when it runs`);
      return;
    }
    this.script(args.map((w) => w.value).join(' '), frame);
  }

  script(source: string, frame: Frame): void {
    this.run(source, { depth: frame.depth + 1, nested: true, denyOnly: frame.denyOnly, stdin: this.stdin(frame) });
  }

  stdin(frame: Frame): Stdin {
    return stdinOf(frame.source, frame.stdin, frame.piped);
  }

  stdinCode(frame: Frame, who: string): void {
    const fed = this.stdin(frame);
    if (fed.kind === 'text') this.script(fed.text, frame);
    else if (fed.kind === 'unknown') this.problem(`${who} runs commands read from ${fed.why}`);
    else if (fed.kind === 'file') this.leaf([fed.word], { ...frame, allow: false, denyOnly: true }, [], undefined, fed.word);
  }

  codeFile(word: Word, frame: Frame, who: string): Word | undefined {
    if (!word.literal) {
      this.problem(`${who} runs code from a file only known when it runs`);
      return undefined;
    }
    const kind = codeFileKind(word.value).kind;
    if (kind === 'file') return word;
    if (kind === 'stdin') this.stdinCode(frame, who);
    else if (kind === 'descriptor') {
      const text = heredocText(frame.source);
      if (text && text !== '') this.script(text, frame);
      else this.problem(`${who} runs code read from ${word.value}, which is only known when it runs`);
    } else this.problem(`${who} runs code read from ${word.value}, which is not a plain file`);
    return undefined;
  }
}

const EMPTY_COMMAND: SimpleCommand = { assignments: [], words: [], redirects: [], text: '', inSubstitution: false, topLevel: true };

/** `exec` with redirections only: they stay open for the rest of the shell. */
function isBareExec(cmd: SimpleCommand): boolean {
  const [name, ...rest] = cmd.words;
  // tree-sitter reads the descriptor of `exec 0<<<…` as a word.
  return name?.value === 'exec' && rest.every((w) => /^(\{\w+\}|\d+)$/.test(w.value)) && cmd.redirects.length > 0;
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
