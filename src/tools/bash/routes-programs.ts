/**
 * Programs that run a command line they are given, or one they read: `script -c`, `su -c`, `sg`,
 * `runuser -c`, `flock -c`, `ssh host cmd` (and `-o ProxyCommand=`), `scp -S`, `rsync -e`,
 * `socat EXEC:`, `nc -e`, `capsh --`, `at`/`batch`, `crontab`, `npx -c`/`npm exec`, `fd -x`.
 * Tools with subcommands and scripts of their own (git, tar, make, sed…) are in routes-tools.ts.
 */
import type { Frame, Walk } from './analysis.js';
import { guessFrame, optionValues, partOf, positionalWords, withHoles, type Route } from './route-kit.js';
import { TOOL_ROUTES } from './routes-tools.js';
import { literalWord, type Word } from './words.js';
import { skipOptions, type OptionSpec } from './wrappers.js';

/** Every code string among `values`; the program itself is a leaf that runs code when there is one. */
function runValues(w: Walk, words: Word[], frame: Frame, inner: Frame, views: string[], values: Word[], what: string): void {
  w.leaf(words, frame, views, values.length ? `${words[0]!.value} ${what}` : undefined);
  for (const v of values) w.code([v], inner, words[0]!.value);
}

/** `script -c CMD`; without -c it starts a shell that reads its input. */
const scriptRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'c', ['--command']);
  if (code.length) return runValues(w, words, frame, inner, views, code, 'runs a command string');
  w.leaf(words, frame, views, 'script starts a shell that reads its input');
  w.stdinCode(inner, 'script');
};

/** `su [-] [user] -c CMD`, `-s SHELL`; without -c a shell reads the input. */
const suRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'c', ['--command', '--session-command']);
  for (const shell of optionValues(words, 's', ['--shell'])) w.words([shell], guessFrame(inner));
  if (code.length) return runValues(w, words, frame, inner, views, code, 'runs a command string');
  w.leaf(words, frame, views, `${words[0]!.value} starts a shell that reads its input`);
  w.stdinCode(inner, words[0]!.value);
};

/** `sg group -c CMD` or `sg group CMD…` (run by /bin/sh -c). */
const sgRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'c', []);
  if (code.length) return runValues(w, words, frame, inner, views, code, 'runs a command string');
  const rest = positionalWords(words).slice(1);
  w.leaf(words, frame, views, 'sg runs a command string');
  w.code(rest, inner, 'sg');
};

/** `runuser -c CMD`, `runuser -u user -- cmd…`. */
const runuserRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'c', ['--command']);
  if (code.length) return runValues(w, words, frame, inner, views, code, 'runs a command string');
  w.leaf(words, { ...frame, allow: false }, views, 'runuser runs the command it is given');
  w.suffixes(words, inner);
};

const FLOCK_SPEC: OptionSpec = {
  value: ['-w', '--timeout', '-E', '--conflict-exit-code'],
  flags: ['-s', '-x', '-e', '-u', '-n', '-o', '-F', '--shared', '--exclusive', '--unlock', '--nonblock', '--nb', '--close', '--no-fork', '--verbose'],
  positionals: 1,
};

/** `flock FILE cmd…`, `flock FILE -c CMD`. */
const flockRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'c', ['--command']);
  if (code.length) return runValues(w, words, frame, inner, views, code, 'runs a command string');
  w.leaf(words, frame, views, 'flock runs the command it is given');
  const start = skipOptions(words, FLOCK_SPEC);
  if (start < 0) return w.suffixes(words, inner);
  if (start < words.length) w.words(words.slice(start), inner);
};

const SSH_SPEC: OptionSpec = {
  value: [...'BbcDEeFIiJLlmOopQRSWw'].map((c) => `-${c}`),
  flags: [...'46AaCfGgKkMNnqsTtVvXxYy'].map((c) => `-${c}`),
  positionals: 1,
};
const SSH_COMMAND_OPTION = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand)\s*[= ]\s*(.*)$/is;

/** `-o ProxyCommand=…` and friends run a local command (scp, sftp and rsync's ssh take them too). */
function sshCommandOptions(w: Walk, words: Word[], inner: Frame): number {
  let found = 0;
  for (const o of optionValues(words, 'o', [])) {
    if (!o.literal) {
      w.problem('an ssh option is only known when it runs');
      continue;
    }
    const m = SSH_COMMAND_OPTION.exec(o.value);
    if (!m) continue;
    found++;
    w.code([partOf(o, m[2]!)], inner, `ssh -o ${m[1]}`);
  }
  return found;
}

/** `ssh host cmd…` runs the words as a command line on the host (which may be this one). */
const sshRoute: Route = (w, words, frame, inner, views) => {
  sshCommandOptions(w, words, inner);
  w.leaf(words, frame, views, 'ssh runs commands on another host');
  const start = skipOptions(words, SSH_SPEC);
  if (start < 0) return w.suffixes(words, inner);
  if (start < words.length) w.code(words.slice(start), inner, 'ssh');
  else w.stdinCode(inner, 'ssh');
};

/** `scp -S program`, `sftp -S program`, and their `-o ProxyCommand=`. */
const scpRoute: Route = (w, words, frame, inner, views) => {
  const found = sshCommandOptions(w, words, inner);
  const programs = optionValues(words, 'S', []);
  for (const p of programs) w.words([p], guessFrame(inner));
  w.leaf(words, frame, views, found || programs.length ? `${words[0]!.value} runs a program it is given` : undefined);
};

/** `rsync -e 'cmd'` runs the command (with the host and rsync's arguments after it). */
const rsyncRoute: Route = (w, words, frame, inner, views) => {
  const shells = optionValues(words, 'e', ['--rsh']);
  const remote = optionValues(words, '', ['--rsync-path']);
  for (const r of remote) w.code([r], guessFrame(inner), 'rsync --rsync-path');
  runValues(w, words, frame, inner, views, shells, 'runs the command given to -e');
};

/** `socat - EXEC:'cmd'`, `SYSTEM:cmd`. */
const socatRoute: Route = (w, words, frame, inner, views) => {
  const code: Word[] = [];
  for (const a of positionalWords(words)) {
    const m = /^(EXEC|SYSTEM):(.*)$/is.exec(a.value);
    if (m) code.push(partOf(a, m[2]!.split(',')[0]!));
  }
  runValues(w, words, frame, inner, views, code, 'runs a program for an address');
};

/** `nc -e prog`, `nc -c 'cmd'`, `ncat --sh-exec 'cmd'`. */
const netcatRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'ce', ['--exec', '--sh-exec']);
  if (optionValues(words, '', ['--lua-exec']).length) w.problem('ncat --lua-exec runs a Lua script');
  runValues(w, words, frame, inner, views, code, 'runs a program for the connection');
};

/** `capsh … -- args`: the arguments after `--` go to bash. */
const capshRoute: Route = (w, words, frame, inner, views) => {
  const at = words.findIndex((x) => x.value === '--');
  for (const shell of optionValues(words, '', ['--shell'])) w.words([shell], guessFrame(inner));
  w.leaf(words, frame, views, 'capsh runs a shell');
  if (at >= 0) w.words([literalWord('bash'), ...words.slice(at + 1)], inner);
};

/** `at TIME` and `batch` read commands from the input (or `-f file`) and run them later. */
const atRoute: Route = (w, words, frame, inner, views) => {
  const files = optionValues(words, 'f', []);
  if (words.slice(1).some((x) => /^-[lrdc]$/.test(x.value))) return w.leaf(words, frame, views);
  w.leaf(words, frame, views, `${words[0]!.value} runs commands later`);
  if (!files.length) return w.stdinCode(inner, words[0]!.value);
  for (const f of files) w.leaf([f], guessFrame(inner), [], undefined, w.codeFile(f, inner, words[0]!.value));
};

/** `crontab FILE` / `crontab -` installs commands that run later. */
const crontabRoute: Route = (w, words, frame, inner, views) => {
  if (words.slice(1).some((x) => /^-[lreiTV]$/.test(x.value))) return w.leaf(words, frame, views);
  w.leaf(words, frame, views, 'crontab installs commands that run later');
  const file = positionalWords(words).find((x, i, all) => i === all.length - 1);
  if (!file || file.value === '-') return w.stdinCode(inner, 'crontab');
  w.leaf([file], guessFrame(inner), [], undefined, w.codeFile(file, inner, 'crontab'));
};

const NPX_SPEC: OptionSpec = {
  value: ['-p', '--package', '-w', '--workspace', '--prefix', '--cache', '--registry', '--userconfig', '--node-options'],
  flags: [
    '-y',
    '--yes',
    '--no',
    '-q',
    '--quiet',
    '--ws',
    '--workspaces',
    '--include-workspace-root',
    '--no-install',
    '--ignore-existing',
    '--prefer-offline',
    '--prefer-online',
    '--offline',
    '-s',
    '--silent',
  ],
};

/** `npx [opts] cmd…`, `npx -c 'cmd'`, `npm exec -- cmd`; `from` is the first word after `exec`. */
function packageRunner(w: Walk, words: Word[], frame: Frame, inner: Frame, views: string[], from: number): void {
  const code = optionValues(words, 'c', ['--call'], from);
  w.leaf(words, frame, views, `${words[0]!.value} runs a package's command`);
  for (const c of code) w.code([c], inner, `${words[0]!.value} -c`);
  if (code.length) return;
  const start = skipOptions(words, NPX_SPEC, from);
  if (start < 0) return w.suffixes(words, inner);
  if (start < words.length) w.words(words.slice(start), guessFrame(inner));
}

/** `npm exec`, `pnpm exec|dlx`, `yarn exec|dlx`, `bun x`; `bun exec 'cmd'` runs a shell string. */
function packageManager(verbs: readonly string[]): Route {
  return (w, words, frame, inner, views) => {
    const verbAt = words.findIndex((x, i) => i > 0 && !x.value.startsWith('-'));
    const verb = verbAt > 0 ? words[verbAt]!.value : undefined;
    if (words[0]!.value === 'bun' && verb === 'exec') {
      w.leaf(words, frame, views, 'bun exec runs a shell string');
      return w.code(words.slice(verbAt + 1), inner, 'bun exec');
    }
    if (verb === undefined || !verbs.includes(verb)) return w.leaf(words, frame, views);
    packageRunner(w, words, frame, inner, views, verbAt + 1);
  };
}

const FD_EXEC = new Set(['-x', '--exec', '-X', '--exec-batch']);

/** `fd PATTERN -x cmd {}`: the rest of the line (up to `;`) runs for each file. */
const fdRoute: Route = (w, words, frame, inner, views) => {
  const at = words.findIndex((x) => FD_EXEC.has(x.value));
  if (at < 0) return w.leaf(words, frame, views);
  w.leaf(words, frame, views, `${words[0]!.value} ${words[at]!.value} runs a command for each file`);
  let end = at + 1;
  while (end < words.length && words[end]!.value !== ';') end++;
  let cmd = words.slice(at + 1, end);
  for (const token of ['{//}', '{/.}', '{/}', '{.}', '{}']) cmd = withHoles(cmd, token);
  if (cmd.length) w.words(cmd, inner);
};

export const PROGRAM_ROUTES: Readonly<Record<string, Route>> = {
  script: scriptRoute,
  su: suRoute,
  sg: sgRoute,
  runuser: runuserRoute,
  flock: flockRoute,
  ssh: sshRoute,
  scp: scpRoute,
  sftp: scpRoute,
  rsync: rsyncRoute,
  socat: socatRoute,
  nc: netcatRoute,
  ncat: netcatRoute,
  netcat: netcatRoute,
  capsh: capshRoute,
  at: atRoute,
  batch: atRoute,
  crontab: crontabRoute,
  npx: (w, words, frame, inner, views) => packageRunner(w, words, frame, inner, views, 1),
  bunx: (w, words, frame, inner, views) => packageRunner(w, words, frame, inner, views, 1),
  pnpx: (w, words, frame, inner, views) => packageRunner(w, words, frame, inner, views, 1),
  npm: packageManager(['exec', 'x']),
  pnpm: packageManager(['exec', 'dlx']),
  yarn: packageManager(['exec', 'dlx']),
  bun: packageManager(['x']),
  fd: fdRoute,
  fdfind: fdRoute,
  ...TOOL_ROUTES,
};
