/**
 * Commands that run another command given as their arguments, and how to find that command.
 *
 * - `transparent`: the wrapper only changes how the inner command runs (`timeout 5 npm test` is
 *   `npm test` for every rule, allow included), as in Claude Code.
 * - `runner`: runs its argument as a program, but may not be approved by a prefix rule (`xargs`,
 *   `setsid`, `watch`…). Deny and ask rules see the inner command.
 * - `privileged`: `sudo`, `doas`: allow rules match the whole command as written, deny and ask rules
 *   also see the inner command.
 * When the options cannot be read, every later argument is tried as the start of the inner command
 * (deny and ask only): fail closed.
 */
import type { Word } from './words.js';

export interface OptionSpec {
  /** Options taking a value (`-n 5`, `-n5`, `--signal=KILL`, `--signal KILL`). */
  value?: readonly string[];
  /** Options without a value. */
  flags?: readonly string[];
  /** Short options whose value may only be attached (`xargs -i{}`, `-l1`). */
  attached?: readonly string[];
  /** `nice -5`. */
  numericShort?: boolean;
  /** Positional arguments before the command (`timeout DURATION`, `chroot DIR`). */
  positionals?: number;
}

export type WrapperKind = 'transparent' | 'runner' | 'privileged';

export interface WrapperSpec extends OptionSpec {
  kind: WrapperKind;
  /** Where the command starts is not read from the options: every later argument is tried (deny/ask only). */
  guess?: boolean;
}

export const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  timeout: {
    kind: 'transparent',
    value: ['-s', '--signal', '-k', '--kill-after'],
    flags: ['--preserve-status', '--foreground', '-v', '--verbose'],
    positionals: 1,
  },
  time: { kind: 'transparent', flags: ['-p'] },
  nice: { kind: 'transparent', value: ['-n', '--adjustment'], numericShort: true },
  nohup: { kind: 'transparent' },
  stdbuf: { kind: 'transparent', value: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  command: { kind: 'transparent', flags: ['-p'] },
  builtin: { kind: 'transparent' },
  noglob: { kind: 'transparent' },
  exec: { kind: 'runner', value: ['-a'], flags: ['-c', '-l'] },
  setsid: { kind: 'runner', flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] },
  ionice: { kind: 'runner', value: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'], flags: ['-t', '--ignore'] },
  chroot: { kind: 'runner', value: ['--userspec', '--groups'], flags: ['--skip-chdir'], positionals: 1 },
  taskset: { kind: 'runner', flags: ['-a', '--all-tasks'], positionals: 1 },
  // `coproc [NAME] { …; }`: the parser reads the braces as words, so every later word may start the command.
  coproc: { kind: 'runner', guess: true },
  strace: { kind: 'runner', value: ['-o', '-e', '-p', '-s', '-u', '-E'], flags: ['-f', '-ff', '-c', '-q', '-t', '-tt', '-T', '-v', '-y'] },
  ltrace: { kind: 'runner', value: ['-o', '-e', '-p', '-s', '-u', '-n'], flags: ['-f', '-c', '-i', '-S', '-t', '-T'] },
  unshare: { kind: 'runner' },
  nsenter: { kind: 'runner' },
  chrt: { kind: 'runner' },
  'systemd-run': { kind: 'runner' },
  firejail: { kind: 'runner' },
  fakeroot: { kind: 'runner' },
  proot: { kind: 'runner' },
  runuser: { kind: 'runner' },
  busybox: { kind: 'runner' },
  toybox: { kind: 'runner' },
  parallel: { kind: 'runner' },
  sem: { kind: 'runner', guess: true },
  pkexec: { kind: 'privileged', value: ['--user'], flags: ['--disable-internal-agent', '--keep-cwd'] },
  gosu: { kind: 'privileged', positionals: 1 },
  'su-exec': { kind: 'privileged', positionals: 1 },
  setpriv: { kind: 'runner', guess: true },
  chpst: { kind: 'runner', guess: true },
  setuidgid: { kind: 'runner', positionals: 1 },
  's6-setuidgid': { kind: 'runner', positionals: 1 },
  envdir: { kind: 'runner', positionals: 1 },
  softlimit: { kind: 'runner', guess: true },
  prlimit: { kind: 'runner', guess: true },
  numactl: { kind: 'runner', guess: true },
  cpulimit: { kind: 'runner', guess: true },
  cgexec: { kind: 'runner', guess: true },
  eatmydata: { kind: 'runner' },
  nocache: { kind: 'runner' },
  torsocks: { kind: 'runner', guess: true },
  tsocks: { kind: 'runner' },
  proxychains: { kind: 'runner', guess: true },
  proxychains4: { kind: 'runner', guess: true },
  catchsegv: { kind: 'runner' },
  valgrind: { kind: 'runner', guess: true },
  unbuffer: { kind: 'runner', guess: true },
  faketime: { kind: 'runner', guess: true },
  lckdo: { kind: 'runner', guess: true },
  timelimit: { kind: 'runner', guess: true },
  tini: { kind: 'runner', guess: true },
  'dumb-init': { kind: 'runner', guess: true },
  bwrap: { kind: 'runner', guess: true },
  'flatpak-spawn': { kind: 'runner', guess: true },
  entr: { kind: 'runner', guess: true },
  retry: { kind: 'runner', guess: true },
  tmux: { kind: 'runner', guess: true },
  screen: { kind: 'runner', guess: true },
  dtach: { kind: 'runner', guess: true },
  abduco: { kind: 'runner', guess: true },
  'start-stop-daemon': { kind: 'runner', guess: true },
  daemonize: { kind: 'runner', guess: true },
  tsp: { kind: 'runner', guess: true },
  nq: { kind: 'runner', guess: true },
  caffeinate: { kind: 'runner' },
  'dbus-run-session': { kind: 'runner' },
  'xvfb-run': { kind: 'runner' },
  sudo: {
    kind: 'privileged',
    value: [
      '-u',
      '-g',
      '-h',
      '-p',
      '-C',
      '-D',
      '-r',
      '-t',
      '-U',
      '-T',
      '--user',
      '--group',
      '--host',
      '--prompt',
      '--close-from',
      '--chdir',
      '--role',
      '--type',
      '--other-user',
      '--command-timeout',
    ],
    flags: [
      '-A',
      '-b',
      '-E',
      '-H',
      '-k',
      '-n',
      '-P',
      '-S',
      '-s',
      '-i',
      '--askpass',
      '--background',
      '--preserve-env',
      '--set-home',
      '--reset-timestamp',
      '--non-interactive',
      '--preserve-groups',
      '--stdin',
      '--shell',
      '--login',
    ],
  },
  doas: { kind: 'privileged', value: ['-u', '-C'], flags: ['-n', '-s'] },
};

/**
 * Variables whose value a program runs as a command (`GIT_PAGER='…' git log`) or that make a shell
 * run a file (`BASH_ENV`): their literal values are parsed as code for deny and ask rules.
 */
export const SHELL_VALUE_VARS = new Set([
  'PAGER',
  'GIT_PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_SSH',
  'GIT_EXTERNAL_DIFF',
  'GIT_ASKPASS',
  'GIT_PROXY_COMMAND',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'LESSOPEN',
  'LESSCLOSE',
  'BROWSER',
  'RSYNC_RSH',
  'CVS_RSH',
  'PROMPT_COMMAND',
  'FCEDIT',
  'BASH_ENV',
  'ENV',
  'TAR_OPTIONS',
  'GIT_CONFIG_PARAMETERS',
  'MAKEFLAGS',
  'MFLAGS',
  'MAKE',
  'SHELL',
]);

/** Shells whose `-c` string (or stdin) is bash-like code. */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'fish', 'rbash']);

/**
 * Index of the first word after the options described by `spec` (and its positionals), or -1 when
 * an option is not understood or a word is not literal.
 */
export function skipOptions(words: readonly Word[], spec: OptionSpec, start = 1): number {
  const value = new Set(spec.value ?? []);
  const flags = new Set(spec.flags ?? []);
  const attached = new Set(spec.attached ?? []);
  let i = start;
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (!w.literal) return -1;
    const text = w.value;
    if (text === '--') {
      i++;
      break;
    }
    if (!text.startsWith('-') || text === '-') break;
    const step = text.startsWith('--') ? longOption(text, value, flags) : shortCluster(text, value, flags, attached, spec);
    if (step < 0) return -1;
    i += step - 1;
  }
  i += spec.positionals ?? 0;
  return i <= words.length ? i : -1;
}

function longOption(text: string, value: Set<string>, flags: Set<string>): number {
  const [name] = text.split('=', 1) as [string];
  if (value.has(name)) return text.includes('=') ? 1 : 2;
  if (flags.has(name)) return 1;
  return -1;
}

function shortCluster(text: string, value: Set<string>, flags: Set<string>, attached: Set<string>, spec: OptionSpec): number {
  if (spec.numericShort && /^-\d+$/.test(text)) return 1;
  if (flags.has(text)) return 1;
  for (let j = 1; j < text.length; j++) {
    const opt = `-${text[j]}`;
    if (value.has(opt)) return j === text.length - 1 ? 2 : 1;
    if (attached.has(opt)) return 1;
    if (!flags.has(opt)) return -1;
  }
  return 1;
}

/** `xargs` options; its command gets the words read from stdin. */
export const XARGS_SPEC: OptionSpec = {
  value: [
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--max-lines',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ],
  flags: ['-0', '-o', '-p', '-r', '-t', '-x', '--null', '--open-tty', '--interactive', '--no-run-if-empty', '--verbose', '--exit', '--show-limits'],
  attached: ['-i', '-e', '-l'],
};

/** `env` options; `NAME=value` words follow, then the command. `-S` splits a string: not readable. */
export const ENV_SPEC: OptionSpec = {
  value: ['-u', '--unset', '-C', '--chdir'],
  flags: ['-i', '--ignore-environment', '-0', '--null', '-v', '--debug', '-'],
};

/** `watch` runs its arguments joined with spaces through `sh -c`. */
export const WATCH_SPEC: OptionSpec = {
  value: ['-n', '--interval', '-q', '--equexit'],
  flags: [
    '-b',
    '-c',
    '-d',
    '-e',
    '-g',
    '-p',
    '-t',
    '-w',
    '-x',
    '--beep',
    '--color',
    '--differences',
    '--errexit',
    '--chgexit',
    '--precise',
    '--no-title',
    '--no-wrap',
    '--exec',
    '--no-linewrap',
  ],
};

/** Leading environment assignments that may be dropped before matching an allow rule. */
const SAFE_ENV =
  /^(NODE_ENV|CI|DEBUG|FORCE_COLOR|NO_COLOR|TERM|COLORTERM|LANG|LANGUAGE|LC_[A-Z]+|TZ|RUST_BACKTRACE|RUST_LOG|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|GOOS|GOARCH|CGO_ENABLED|NODE_NO_WARNINGS|VERBOSE|COLUMNS|LINES)$/;

export function isSafeAssignment(word: Word): boolean {
  const name = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(word.raw)?.[1];
  return name !== undefined && SAFE_ENV.test(name);
}

/** Variables that change what later commands run (PATH lookups, preloads, shell start-up files). */
export const DANGEROUS_VARS = new Set([
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'BASH_ENV',
  'ENV',
  'IFS',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'GIT_EXEC_PATH',
  'NODE_OPTIONS',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PERL5OPT',
  'RUBYOPT',
  'DYLD_INSERT_LIBRARIES',
  'GIT_SSH_COMMAND',
  'GIT_CONFIG_GLOBAL',
  'CDPATH',
]);
