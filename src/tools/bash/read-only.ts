/**
 * Commands that only read, with the flags that would make them write or run something else.
 * A command is read-only when its name is listed here and its check passes on the arguments; the
 * caller also requires that no redirection writes a file and that nothing is unreadable.
 */
import path from 'node:path';
import { isPrintOnlySedScript } from './sed.js';
import type { Word } from './words.js';

type Check = (args: readonly Word[]) => boolean;

const ANY: Check = () => true;

/** None of these options (long, short alone, or a short letter inside a cluster such as `-uo`). */
function without(...opts: string[]): Check {
  const longs = opts.filter((o) => o.startsWith('--'));
  const shorts = opts.filter((o) => !o.startsWith('--')).map((o) => o.slice(1));
  return (args) =>
    !args.some((a) => {
      const v = a.value;
      if (v.startsWith('--')) return longs.some((l) => v === l || v.startsWith(`${l}=`));
      return /^-[^-]/.test(v) && shorts.some((s) => v.slice(1).includes(s));
    });
}

function positionals(args: readonly Word[]): Word[] {
  return args.filter((a) => !a.value.startsWith('-') || a.value === '-');
}

const atMostOnePositional: Check = (args) => positionals(args).length <= 1;
const noPositional: Check = (args) => positionals(args).length === 0;

const FIND_ACTIONS = ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];
const findCheck: Check = (args) => !args.some((a) => FIND_ACTIONS.includes(a.value));

const sedCheck: Check = (args) => {
  if (without('-i', '--in-place', '-f', '--file')(args) === false) return false;
  const scripts: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-e' || v === '--expression') scripts.push(args[++i]?.value ?? '');
    else if (v.startsWith('--expression=')) scripts.push(v.slice('--expression='.length));
    else if (v.startsWith('-e') && v.length > 2) scripts.push(v.slice(2));
  }
  if (!scripts.length) {
    const first = positionals(args)[0];
    if (!first) return false;
    scripts.push(first.value);
  }
  return args.every((a) => a.literal || !scripts.includes(a.value)) && scripts.every(isPrintOnlySedScript);
};

const GIT_READ = new Set([
  'status',
  'log',
  'show',
  'diff',
  'blame',
  'annotate',
  'shortlog',
  'describe',
  'rev-parse',
  'rev-list',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'cat-file',
  'grep',
  'show-ref',
  'for-each-ref',
  'merge-base',
  'name-rev',
  'whatchanged',
  'count-objects',
  'check-ignore',
  'check-attr',
  'var',
  'version',
  'cherry',
  'range-diff',
  'diff-tree',
  'diff-files',
  'diff-index',
  'show-branch',
  'help',
]);
const GIT_BRANCH_WRITES = [
  '-d',
  '-D',
  '-m',
  '-M',
  '-c',
  '-C',
  '-f',
  '-u',
  '-t',
  '--delete',
  '--move',
  '--copy',
  '--force',
  '--set-upstream-to',
  '--unset-upstream',
  '--edit-description',
  '--track',
  '--no-track',
  '--create-reflog',
];

const gitCheck: Check = (args) => {
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-C' || v === '--git-dir' || v === '--work-tree') i++;
    else if (v === '-c' || v.startsWith('--config-env') || v.startsWith('--exec-path')) return false;
    else if (!v.startsWith('-')) break;
  }
  const sub = args[i]?.value;
  const rest = args.slice(i + 1);
  if (!sub || rest.some((a) => !a.literal && a.value.startsWith('-'))) return false;
  if (rest.some((a) => a.value === '--output' || a.value.startsWith('--output=') || a.value === '--ext-diff')) return false;
  if (sub === 'grep' && rest.some((a) => a.value.startsWith('-O') || a.value.startsWith('--open-files-in-pager'))) return false;
  if (GIT_READ.has(sub)) return true;
  const pos = positionals(rest);
  const listing = rest.some((a) => a.value === '--list' || a.value === '-l');
  switch (sub) {
    case 'branch':
      return without(...GIT_BRANCH_WRITES)(rest) && (pos.length === 0 || listing);
    case 'tag':
      return without('-d', '-a', '-s', '-u', '-f', '-m', '-F', '--delete', '--annotate', '--sign', '--force')(rest) && (pos.length === 0 || listing);
    case 'remote':
      return pos.length === 0 || ['show', 'get-url'].includes(pos[0]!.value);
    case 'stash':
      return ['list', 'show'].includes(pos[0]?.value ?? '');
    case 'worktree':
      return pos[0]?.value === 'list';
    case 'reflog':
      return pos.length === 0 || pos[0]!.value === 'show';
    case 'config':
      return rest.some((a) => ['--get', '--get-all', '--get-regexp', '--list', '-l', 'get', 'list'].includes(a.value));
    default:
      return false;
  }
};

const READ_ONLY: Readonly<Record<string, Check>> = {
  ls: ANY,
  cat: ANY,
  head: ANY,
  tail: ANY,
  wc: ANY,
  pwd: ANY,
  echo: ANY,
  printf: ANY,
  which: ANY,
  whereis: ANY,
  type: ANY,
  stat: ANY,
  du: ANY,
  df: ANY,
  diff: ANY,
  cmp: ANY,
  comm: ANY,
  cut: ANY,
  tr: ANY,
  nl: ANY,
  od: ANY,
  hexdump: ANY,
  grep: ANY,
  egrep: ANY,
  fgrep: ANY,
  zgrep: ANY,
  zcat: ANY,
  basename: ANY,
  dirname: ANY,
  realpath: ANY,
  readlink: ANY,
  uname: ANY,
  id: ANY,
  whoami: ANY,
  groups: ANY,
  true: ANY,
  false: ANY,
  test: ANY,
  '[': ANY,
  seq: ANY,
  expr: ANY,
  sleep: ANY,
  jq: ANY,
  column: ANY,
  fold: ANY,
  fmt: ANY,
  paste: ANY,
  join: ANY,
  expand: ANY,
  unexpand: ANY,
  rev: ANY,
  tac: ANY,
  strings: ANY,
  md5sum: ANY,
  sha1sum: ANY,
  sha224sum: ANY,
  sha256sum: ANY,
  sha384sum: ANY,
  sha512sum: ANY,
  b2sum: ANY,
  cksum: ANY,
  base64: ANY,
  base32: ANY,
  nproc: ANY,
  uptime: ANY,
  free: ANY,
  ps: ANY,
  pgrep: ANY,
  locale: ANY,
  getconf: ANY,
  arch: ANY,
  cd: ANY,
  pushd: ANY,
  popd: ANY,
  dirs: ANY,
  ':': ANY,
  file: without('-C', '--compile'),
  xxd: (a) => atMostOnePositional(a),
  sort: without('-o', '--output', '--compress-program'),
  uniq: atMostOnePositional,
  rg: without('--pre', '--pre-glob', '-z', '--search-zip'),
  fd: without('-x', '--exec', '-X', '--exec-batch'),
  find: findCheck,
  date: without('-s', '--set'),
  hostname: noPositional,
  // `env` and `printenv` alone show every variable, secrets too: Claude Code asks for them.
  node: (a) => a.length === 1 && a[0]!.literal && (a[0]!.value === '--version' || a[0]!.value === '-v'),
  tree: without('-o'),
  sed: sedCheck,
  git: gitCheck,
  command: (a) => a.some((w) => /^-[pvV]*[vV]/.test(w.value)),
};

/** Is this one command (after unwrapping) on the read-only list with harmless flags? */
export function isReadOnlyCommand(words: readonly Word[]): boolean {
  const name = words[0];
  if (!name?.literal) return false;
  const check = READ_ONLY[name.value];
  if (!check) return false;
  const args = words.slice(1);
  return check(args);
}

/** Commands whose arguments are not paths: nothing to check against the workspace. */
const NO_PATH_ARGS = new Set([
  'echo',
  'printf',
  'expr',
  'seq',
  'test',
  '[',
  'true',
  'false',
  'sleep',
  'date',
  'uname',
  'id',
  'whoami',
  'groups',
  'printenv',
  'env',
  'which',
  'whereis',
  'type',
  'command',
  'hostname',
  'nproc',
  'uptime',
  'free',
  'ps',
  'pgrep',
  'locale',
  'getconf',
  'arch',
  'tr',
  'basename',
  'dirname',
  ':',
  'git',
]);
/** The first positional is a pattern or program, not a path. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'sed', 'jq']);

/**
 * The arguments of a read-only command that name files or directories, as words. For `cd` the
 * target (home when absent). `git -C dir` is included.
 */
export function pathArguments(words: readonly Word[]): Word[] {
  const name = words[0]?.value ?? '';
  const args = words.slice(1);
  if (name === 'git') {
    const i = args.findIndex((a) => a.value === '-C');
    return i >= 0 && args[i + 1] ? [args[i + 1]!] : [];
  }
  if (NO_PATH_ARGS.has(name)) return [];
  if (name === 'cd' || name === 'pushd') {
    const target = positionals(args)[0];
    return [target ?? { raw: '~', value: '~', pattern: '~', literal: true }];
  }
  let pos = positionals(args.filter((a, i) => !isOptionValue(name, args, i)));
  const explicit = args.some((a) => a.value === '-e' || a.value === '-f' || a.value.startsWith('--regexp') || a.value.startsWith('--expression'));
  if (PATTERN_FIRST.has(name) && !explicit) pos = pos.slice(1);
  if (name === 'find') pos = pos.filter((_, i) => i < firstExpression(args));
  return pos;
}

/** Short options that take a value, for the commands where the common guess is wrong (`sed -n` does not). */
const VALUE_SHORTS: Readonly<Record<string, string>> = {
  sed: 'efl',
  grep: 'efmABCdD',
  egrep: 'efmABCdD',
  fgrep: 'efmABCdD',
  zgrep: 'efmABCdD',
  rg: 'efmABCgtTjMrE',
  head: 'nc',
  tail: 'ncs',
  cut: 'dfbc',
  sort: 'ktST',
  uniq: 'fsw',
  jq: '',
};

/** Values following `-e`/`-f`/`-m`… are not paths (a cheap, conservative reading). */
function isOptionValue(name: string, args: readonly Word[], i: number): boolean {
  const prev = args[i - 1]?.value;
  const letters = VALUE_SHORTS[name] ?? 'efmABCnd';
  return prev !== undefined && letters !== '' && new RegExp(`^-[${letters}]$`).test(prev) && !args[i]!.value.startsWith('-');
}

function firstExpression(args: readonly Word[]): number {
  const i = args.findIndex((a) => /^[-(!]/.test(a.value));
  return i === -1 ? args.length : i;
}

/** Resolve a path argument for the workspace check; undefined when it is only known at run time. */
export function resolvePathWord(word: Word, cwd: string | undefined, home: string): string | undefined {
  if (word.literal) return resolvePathText(word.value, cwd, home);
  // Only globs are followed (to the folder they start in); a variable, a substitution or a brace
  // expansion could point anywhere, and so could the files find/xargs feed.
  if (/[$`]/.test(word.raw) || word.pattern.includes('..') || word.item || word.glob === undefined) return undefined;
  const known = word.pattern.split('\u0000')[0] ?? '';
  return resolvePathText(known.includes('/') ? known.slice(0, known.lastIndexOf('/') + 1) : '.', cwd, home);
}

function resolvePathText(text: string, cwd: string | undefined, home: string): string | undefined {
  if (text === '~' || text.startsWith('~/')) return path.join(home, text.slice(1));
  if (text.startsWith('~')) return undefined;
  if (path.isAbsolute(text)) return processPath(path.resolve(text), cwd);
  return cwd === undefined ? undefined : path.resolve(cwd, text);
}

/**
 * `/proc/self/cwd` is the directory of the process that opens it — the command's, not wicket's;
 * `/proc/self/root` is `/`; another process's are unknown.
 */
function processPath(p: string, cwd: string | undefined): string | undefined {
  const m = /^\/proc\/([^/]+)\/(cwd|root)(\/.*)?$/.exec(p);
  if (!m) return p;
  if (m[1] !== 'self' && m[1] !== 'thread-self') return undefined;
  if (m[2] === 'root') return path.resolve('/', `.${m[3] ?? ''}`);
  return cwd === undefined ? undefined : path.join(cwd, m[3] ?? '');
}
