/**
 * Every way the analyzer knows for data to become code, in one table: shell builtins (`eval`,
 * `source`, `trap`, `alias`, `hash -p`…), shells reading `-c`, a file or their stdin, `xargs`,
 * `find -exec`, `watch`, `env`, and the programs of routes-programs.ts and interpreters.ts.
 * A route records the command as a leaf and hands what it runs back to the analyzer: literal code is
 * parsed with the same rules as the command line; code only known when it runs is a problem (deny
 * while a Bash deny rule exists, ask otherwise).
 */
import type { Frame } from './analysis.js';
import { INTERPRETER_ROUTES } from './interpreters.js';
import { guessFrame, optionValues, withHoles, type Route } from './route-kit.js';
import { PROGRAM_ROUTES } from './routes-programs.js';
import { HOLE, literalWord, type Word } from './words.js';
import { ENV_SPEC, SHELLS, WATCH_SPEC, WRAPPERS, XARGS_SPEC, isSafeAssignment, skipOptions } from './wrappers.js';

const evalRoute: Route = (w, words, frame, inner, views) => {
  w.leaf(words, frame, views, 'eval runs its arguments as code');
  w.code(words.slice(1), inner, 'eval');
};

/** `source FILE`, `. FILE`: a regular file is read by match.ts; stdin and descriptors are followed. */
const sourceRoute: Route = (w, words, frame, inner, views) => {
  const name = words[0]!.value;
  const file = words[1]?.value === '--' ? words[2] : words[1];
  if (!file) return w.leaf(words, frame, views);
  w.leaf(words, frame, views, `${name} runs the commands in a file`, w.codeFile(file, inner, name));
};

/** `bash -c CODE`, `bash FILE`, `bash -s`, `bash` reading stdin, `bash --rcfile FILE`. */
const shellRoute: Route = (w, words, frame, inner, views) => {
  const name = words[0]!.value;
  let i = 1;
  let hasC = false;
  let hasS = false;
  for (; i < words.length; i++) {
    const x = words[i]!;
    if (!x.literal && hasC) break;
    if (!x.literal) {
      w.problem(`the options of ${name} are only known when it runs`);
      return w.leaf(words, frame, views, `${name} runs code`);
    }
    const v = x.value;
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (v === '--rcfile' || v === '--init-file') {
      const rc = words[++i];
      if (rc) w.leaf([rc], guessFrame(inner), [], undefined, w.codeFile(rc, inner, `${name} ${v}`));
    } else if (/^[-+][a-zA-Z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) hasC = true;
      if (v.startsWith('-') && v.includes('s')) hasS = true;
      if (/[oO]$/.test(v)) i++;
    } else if (!v.startsWith('--')) break;
  }
  if (hasC) {
    w.leaf(words, frame, views, `${name} -c runs a string as code`);
    return w.code(words.slice(i, i + 1), inner, `${name} -c`);
  }
  const operand = hasS ? undefined : words[i];
  if (!operand) {
    w.leaf(words, frame, views, `${name} runs the commands it reads from its input`);
    return w.stdinCode(inner, name);
  }
  const file = w.codeFile(operand, inner, name);
  w.leaf(words, frame, views, file ? undefined : `${name} runs code from ${operand.raw}`, file);
};

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

const xargsRoute: Route = (w, words, frame, inner, views) => {
  w.leaf(words, frame, views, 'xargs runs a command built from its input');
  const start = skipOptions(words, XARGS_SPEC);
  if (start < 0) return w.suffixes(words, inner);
  const rest = start < words.length ? words.slice(start) : [literalWord('echo')];
  const repl = replacement(words.slice(1, start));
  const filled = repl ? withHoles(rest, repl) : [...rest, { raw: '(input)', value: '(input)', pattern: HOLE, literal: false, item: true }];
  w.words(filled, inner);
};

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

const findRoute: Route = (w, words, frame, inner, views) => {
  let runs: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === '-delete') runs ??= 'find -delete removes what it finds';
    if (!FIND_EXEC.has(v)) continue;
    runs = `find ${v} runs a command for each file`;
    let j = i + 1;
    while (j < words.length && words[j]!.value !== ';' && words[j]!.value !== '+') j++;
    const cmd = withHoles(words.slice(i + 1, j), '{}');
    if (cmd.length) w.words(cmd, inner);
    i = j;
  }
  w.leaf(words, frame, views, runs);
};

const watchRoute: Route = (w, words, frame, inner, views) => {
  w.leaf(words, frame, views, 'watch runs a command repeatedly');
  const start = skipOptions(words, WATCH_SPEC);
  if (start < 0) return w.suffixes(words, inner);
  const rest = words.slice(start);
  if (words.slice(1, start).some((x) => x.value === '-x' || x.value === '--exec')) {
    if (rest.length) w.words(rest, inner);
  } else w.code(rest, inner, 'watch');
};

const envRoute: Route = (w, words, frame, inner, views) => {
  const split = optionValues(words, 'S', ['--split-string']);
  const start = split.length ? -1 : skipOptions(words, ENV_SPEC);
  if (start < 0) {
    w.leaf(words, { ...frame, allow: false }, views, 'env runs a command it is given');
    for (const s of split) w.code([s], inner, 'env -S');
    return w.suffixes(words, inner);
  }
  let i = start;
  const unsafe: string[] = [];
  for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.raw); i++) {
    const name = words[i]!.raw.split('=', 1)[0]!;
    w.assign(name);
    w.dataWord(words[i]!, inner);
    if (!isSafeAssignment(words[i]!)) unsafe.push(words[i]!.pattern);
  }
  if (i >= words.length) return w.leaf(words, frame, views);
  const next: Frame = { ...inner, allowPrefix: [...frame.allowPrefix, ...unsafe], allow: frame.allow && start === 1 };
  w.words(words.slice(i), next);
};

/** `trap 'code' EXIT`, `alias ls='rm -rf x'`: code that runs later. */
const trapRoute: Route = (w, words, frame, inner, views) => {
  w.leaf(words, frame, views, 'trap stores code that runs later');
  const args = words.slice(1).filter((x) => !x.value.startsWith('-'));
  if (args.length >= 2) w.code(args.slice(0, 1), inner, 'trap');
};

const aliasRoute: Route = (w, words, frame, inner, views) => {
  w.leaf(words, frame, views, 'alias stores code that runs later');
  for (const a of words.slice(1).filter((x) => !x.value.startsWith('-'))) {
    const eq = a.value.indexOf('=');
    if (eq > 0) w.code([{ ...a, value: a.value.slice(eq + 1) }], inner, 'alias');
  }
};

const commandRoute: Route = (w, words, frame, inner, views) => {
  if (words.slice(1).some((x) => /^-[pvV]*[vV]/.test(x.value))) return w.leaf(words, frame, views);
  w.wrapper(words, WRAPPERS.command!, frame, inner, views);
};

/** `hash -p /bin/rm r`: the name `r` runs that program from now on. */
const hashRoute: Route = (w, words, frame, inner, views) => {
  const target = optionValues(words, 'p', []);
  w.leaf(words, frame, views, target.length ? 'hash -p makes a name run another program' : undefined);
  for (const t of target) w.words([t], guessFrame(inner));
};

/** `compgen -C 'cmd'`, `complete -C 'cmd' x`: runs the command to list completions. */
const completionRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'C', []);
  w.leaf(words, frame, views, code.length ? `${words[0]!.value} -C runs a command` : undefined);
  for (const c of code) w.code([c], inner, `${words[0]!.value} -C`);
};

const enableRoute: Route = (w, words, frame, inner, views) => {
  if (optionValues(words, 'f', []).length) w.problem('enable -f loads a builtin from a shared library');
  w.leaf(words, frame, views);
};

const BUILTIN_ROUTES: Record<string, Route> = {
  eval: evalRoute,
  source: sourceRoute,
  '.': sourceRoute,
  xargs: xargsRoute,
  find: findRoute,
  watch: watchRoute,
  env: envRoute,
  trap: trapRoute,
  alias: aliasRoute,
  command: commandRoute,
  hash: hashRoute,
  compgen: completionRoute,
  complete: completionRoute,
  enable: enableRoute,
};

export const ROUTES: Readonly<Record<string, Route>> = {
  ...Object.fromEntries([...SHELLS].map((s) => [s, shellRoute])),
  ...PROGRAM_ROUTES,
  ...INTERPRETER_ROUTES,
  ...BUILTIN_ROUTES,
};
