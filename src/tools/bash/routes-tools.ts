/**
 * Tools with a way of their own to run a command: git (`-c alias.x='!cmd'`, `config`, `rebase -x`,
 * `submodule foreach`…), tar (`--to-command`, `--checkpoint-action=exec=`, `-I`), `zip -TT`,
 * `man -P`, `less +!cmd`, vim's `-c '!cmd'`, gdb's `-ex 'shell cmd'`, sqlite3's `.shell`, make
 * (a makefile from the command line), sed's `e`, expect and emacs.
 */
import type { Frame, Walk } from './analysis.js';
import { guessFrame, optionValues, partOf, positionalWords, type Route } from './route-kit.js';
import { sedExecutions } from './sed.js';
import { codeFileKind, heredocText } from './stdin.js';
import { literalWord, type Word } from './words.js';

/** Parse each value as code; the program runs code when there is any. */
function runValues(w: Walk, words: Word[], frame: Frame, inner: Frame, views: string[], values: Word[], what: string): void {
  w.leaf(words, frame, views, values.length ? `${words[0]!.value} ${what}` : undefined);
  for (const v of values) w.code([v], inner, words[0]!.value);
}

/** git options whose value is a command (`--exec`, `--upload-pack`, `--tree-filter`, `--extcmd`…). */
const GIT_CODE_OPTION =
  /^--(exec|upload-pack|receive-pack|extcmd|tool-cmd|to-cmd|cc-cmd|sendmail-cmd|smtp-server|open-files-in-pager|[a-z-]*-filter|setup|editor|pager)$/;
const GIT_GLOBAL_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env']);
const GIT_SHORT_CODE: Record<string, string> = { rebase: 'x', difftool: 'x', clone: 'u', fetch: 'u', pull: 'u', 'ls-remote': 'u' };

const gitRoute: Route = (w, words, frame, inner, views) => {
  const deny = guessFrame(inner);
  let i = 1;
  for (; i < words.length && words[i]!.value.startsWith('-'); i++) {
    const v = words[i]!.value;
    if (v === '-c') configValue(w, words[i + 1], deny);
    if (v.startsWith('--config-env') || v.startsWith('--exec-path=')) w.problem(`git ${v.split('=')[0]} takes settings or programs from elsewhere`);
    if (GIT_GLOBAL_VALUE.has(v)) i++;
  }
  const sub = words[i]?.value;
  const args = words.slice(i + 1);
  const code: Word[] = [];
  for (let j = 0; j < args.length; j++) {
    const v = args[j]!.value;
    const long = /^(--[a-z-]+)(=(.*))?$/s.exec(v);
    if (long && GIT_CODE_OPTION.test(long[1]!)) {
      const value = long[2] !== undefined ? partOf(args[j]!, long[3]!) : long[1] === '--open-files-in-pager' ? undefined : args[j + 1];
      if (value) code.push(value);
    }
  }
  const short = sub ? GIT_SHORT_CODE[sub] : undefined;
  if (short) code.push(...optionValues([words[0]!, ...args], short, []));
  if (sub === 'grep') code.push(...args.filter((a) => /^-O./.test(a.value)).map((a) => partOf(a, a.value.slice(2))));
  if (sub === 'config') for (const value of positionalWords(args, 0).slice(1)) configValue(w, value, deny);
  if (sub === 'submodule' && positionalWords(args, 0)[0]?.value === 'foreach') {
    const at = args.findIndex((a) => a.value === 'foreach');
    code.push(...positionalWords(args, at + 1));
  }
  if (sub === 'bisect' && args[0]?.value === 'run') {
    w.leaf(words, frame, views, 'git bisect run runs a command');
    return w.words(args.slice(1), inner);
  }
  runValues(w, words, frame, inner, views, code, 'runs a command it is given');
};

/** A git setting's value: an alias starting with `!`, a pager, an editor, ssh… parsed for deny rules. */
function configValue(w: Walk, word: Word | undefined, deny: Frame): void {
  if (!word) return;
  if (!word.literal) return w.problem('a git setting is only known when it runs');
  const value = word.value.includes('=') && /^[\w.-]+=/.test(word.value) ? word.value.slice(word.value.indexOf('=') + 1) : word.value;
  w.script(value.replace(/^\s*!/, ''), deny);
}

const TAR_CODE = ['--to-command', '--use-compress-program', '--checkpoint-action', '--rsh-command', '--rmt-command', '--info-script', '--new-volume-script'];

/** `tar --to-command=cmd`, `--checkpoint-action=exec=cmd`, `-I cmd`, `-F script`. */
const tarRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, 'IF', TAR_CODE).flatMap((v) => {
    if (!v.literal) return [v];
    const exec = /^exec=(.*)$/s.exec(v.value);
    if (exec) return [partOf(v, exec[1]!)];
    return /^(echo|dot|bell|ttyout|wait|sleep)(=|$)/.test(v.value) ? [] : [v];
  });
  runValues(w, words, frame, inner, views, code, 'runs a command it is given');
};

/** `zip -TT cmd`, `--unzip-command cmd`. */
const zipRoute: Route = (w, words, frame, inner, views) => {
  const code = optionValues(words, '', ['--unzip-command']);
  words.forEach((x, i) => {
    if (x.value === '-TT' && words[i + 1]) code.push(words[i + 1]!);
    else if (x.value.startsWith('-TT') && x.value.length > 3) code.push(partOf(x, x.value.slice(3)));
  });
  runValues(w, words, frame, inner, views, code, 'runs a command to test the archive');
};

/** `man -P pager`, `man -H browser`. */
const manRoute: Route = (w, words, frame, inner, views) => {
  runValues(w, words, frame, inner, views, optionValues(words, 'PH', ['--pager', '--html']), 'runs the pager it is given');
};

/** `less '+!cmd'`: a start-up command with `!` runs a shell command. */
const pagerRoute: Route = (w, words, frame, inner, views) => {
  const code = words.slice(1).filter((x) => x.value.startsWith('+') && x.value.includes('!'));
  runValues(
    w,
    words,
    frame,
    inner,
    views,
    code.map((x) => partOf(x, x.value.slice(x.value.indexOf('!') + 1))),
    'runs a shell command',
  );
};

const VIM_SCRIPTING =
  /\b(sys|system|systemlist|exe|execute|call|norm|normal|py|pyt|python|python3|py3|pyx|pythonx|lua|luado|perl|perldo|ruby|rubydo|tcl|mz|mzscheme|ter|term|terminal|so|source|runtime|job_start|jobstart|libcall|libcallnr)\b/;

/** vim/ex `-c cmd`, `+cmd`, `--cmd cmd`: `!cmd` runs a shell command; scripting is unreadable. */
const vimRoute: Route = (w, words, frame, inner, views) => {
  const commands = [
    ...optionValues(words, 'c', ['--cmd']),
    ...words
      .slice(1)
      .filter((x) => /^\+./.test(x.value))
      .map((x) => partOf(x, x.value.slice(1))),
  ];
  const code: Word[] = [];
  for (const c of commands) {
    if (!c.literal) {
      w.problem(`a ${words[0]!.value} command is only known when it runs`);
      continue;
    }
    if (VIM_SCRIPTING.test(c.value)) w.problem(`${words[0]!.value} runs script commands that cannot be read: ${c.value}`);
    if (c.value.includes('!')) code.push(partOf(c, c.value.slice(c.value.indexOf('!') + 1)));
  }
  if (optionValues(words, 'Ss', []).length) w.problem(`${words[0]!.value} runs commands from a script file`);
  runValues(w, words, frame, inner, views, code, 'runs a shell command');
};

/** gdb `-ex 'shell cmd'`, `-ex '!cmd'`, `--args prog…`; its scripting languages are unreadable. */
const gdbRoute: Route = (w, words, frame, inner, views) => {
  const code: Word[] = [];
  for (const c of optionValues(words, '', ['-ex', '--ex', '-iex', '--iex', '--eval-command', '--init-eval-command'])) {
    const shell = /^\s*(?:shell\s+|!|pipe\s[^|]*\|)(.*)$/s.exec(c.value);
    if (shell) code.push(partOf(c, shell[1]!));
    else if (!c.literal || /^\s*(python|pi|py|guile|gu|source|compile|eval|define|jit)\b/.test(c.value))
      w.problem(`gdb runs a command that cannot be read: ${c.value}`);
  }
  if (optionValues(words, 'x', ['--command']).length) w.problem('gdb runs commands from a file');
  runValues(w, words, frame, inner, views, code, 'runs a shell command');
  const at = words.findIndex((x) => x.value === '--args');
  if (at >= 0 && at + 1 < words.length) w.words(words.slice(at + 1), inner);
};

/** sqlite3 dot-commands: `.shell cmd`, `.system cmd`, `.once '|cmd'`; `.load` loads code. */
function sqliteCode(w: Walk, text: string, inner: Frame): number {
  let found = 0;
  for (const line of text.split('\n')) {
    const shell = /^\s*\.(shell|system)\s+(.*)$/s.exec(line);
    const pipe = /^\s*\.(once|output|excel|import|read)\s+(?:-\S+\s+)*['"]?\|(.*?)['"]?(\s+\S+)?\s*$/s.exec(line);
    if (shell || pipe) {
      found++;
      w.script((shell?.[2] ?? pipe![2])!, inner);
    }
    if (/^\s*\.load\b/.test(line)) w.problem('sqlite3 .load loads an extension');
  }
  return found;
}

const sqliteRoute: Route = (w, words, frame, inner, views) => {
  const texts = [...positionalWords(words).slice(1), ...optionValues(words, '', ['-cmd'])];
  let found = 0;
  for (const t of texts) {
    if (!t.literal && /\./.test(t.raw)) w.problem('a sqlite3 command is only known when it runs');
    else found += sqliteCode(w, t.value, inner);
  }
  const stdin = w.stdin(inner);
  if (stdin.kind === 'text') found += sqliteCode(w, stdin.text, inner);
  w.leaf(words, frame, views, found ? 'sqlite3 runs a shell command' : undefined);
  // `.read f`, `.import f t`, `readfile('f')`, `writefile('f', …)`: the files it names meet the path rules.
  const named = [...texts.filter((t) => t.literal).map((t) => t.value), ...(stdin.kind === 'text' ? [stdin.text] : [])].flatMap(sqliteFiles);
  if (named.length) w.leaf([literalWord(words[0]!.value), ...named.map(literalWord)], guessFrame(inner), []);
};

/** The string literals of SQL and the arguments of dot-commands: the file names a sqlite3 text may hold. */
function sqliteFiles(text: string): string[] {
  const out = [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!.replace(/''/g, "'"));
  for (const m of text.matchAll(/^\s*\.\w+[ \t]+(.*)$/gm)) out.push(...m[1]!.split(/\s+/).map((a) => a.replace(/^["']|["']$/g, '')));
  return out.filter((v) => v !== '' && v.length < 4096);
}

/** Recipe lines and `$(shell …)` of a makefile given on the command line. */
function makefileCode(w: Walk, text: string, inner: Frame): void {
  const deny = guessFrame(inner);
  for (const line of text.split('\n')) {
    const recipe = /^\t+[@+-]*(.*)$/.exec(line);
    if (recipe) w.script(recipe[1]!, deny);
  }
  for (const m of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) w.script(m[1]!, deny);
}

/** `make -f /dev/stdin <<<…`, `make --eval=…`, `make -E …`: a makefile from the command line. */
const makeRoute: Route = (w, words, frame, inner, views) => {
  let runs = false;
  for (const e of optionValues(words, 'E', ['--eval'])) {
    runs = true;
    if (e.literal) makefileCode(w, e.value, inner);
    else w.problem('make --eval text is only known when it runs');
  }
  for (const f of optionValues(words, 'f', ['--file', '--makefile'])) {
    const kind = f.value === '-' ? 'stdin' : f.literal ? codeFileKind(f.value).kind : 'special';
    if (kind === 'file') continue;
    runs = true;
    const stdin = w.stdin(inner);
    const text = kind === 'stdin' ? (stdin.kind === 'text' ? stdin.text : undefined) : heredocText(inner.source);
    if (text === undefined) w.problem(`make reads a makefile from ${f.value}, only known when it runs`);
    else makefileCode(w, text, inner);
  }
  w.leaf(words, frame, views, runs ? 'make runs a makefile given on the command line' : undefined);
};

/** sed's `e` command and the `e` flag of `s` run text as a command. */
const sedRoute: Route = (w, words, frame, inner, views) => {
  const scripts = optionValues(words, 'e', ['--expression']);
  if (!scripts.length) {
    const first = positionalWords(words).find((x) => !optionValues(words, 'f', ['--file']).includes(x));
    if (first) scripts.push(first);
  }
  let runs = false;
  for (const s of scripts) {
    if (!s.literal) continue;
    const found = sedExecutions(s.value);
    if (found.unknown) w.problem(`the sed script ${s.value} runs text as a command`);
    for (const c of found.code) w.script(c, inner);
    runs ||= found.unknown || found.code.length > 0;
  }
  w.leaf(words, frame, views, runs ? 'sed runs a command' : undefined);
};

const TCL_RUNS = /\b(spawn|exec|system|eval|source|open|uplevel|interp|load)\b/;

/** Tcl (expect, tclsh, wish) can start any program: such a script, or one read from input, is unreadable. */
const tclRoute: Route = (w, words, frame, inner, views) => {
  const who = words[0]!.value;
  for (const c of optionValues(words, 'c', [])) {
    if (!c.literal || TCL_RUNS.test(c.value)) w.problem(`${who} runs a program from its script`);
  }
  const operands = positionalWords(words);
  if (!operands.length || operands[0]!.value === '-' || codeFileKind(operands[0]!.value).kind === 'stdin') {
    const stdin = w.stdin(inner);
    if (stdin.kind === 'unknown' || (stdin.kind === 'text' && TCL_RUNS.test(stdin.text))) w.problem(`${who} runs a program from the script it reads`);
  }
  w.leaf(words, frame, views, `${who} runs a script`);
};

/** emacs `--eval '(shell-command …)'`: Lisp that starts processes is unreadable. */
const emacsRoute: Route = (w, words, frame, inner, views) => {
  for (const e of optionValues(words, '', ['--eval', '-eval', '--execute', '-execute'])) {
    if (!e.literal || /shell|process|eval|load|funcall|apply|call-interactively/.test(e.value)) w.problem('emacs evaluates Lisp that may start a program');
  }
  w.leaf(words, frame, views);
};

export const TOOL_ROUTES: Readonly<Record<string, Route>> = {
  git: gitRoute,
  tar: tarRoute,
  bsdtar: tarRoute,
  gtar: tarRoute,
  zip: zipRoute,
  man: manRoute,
  less: pagerRoute,
  more: pagerRoute,
  vim: vimRoute,
  vi: vimRoute,
  nvim: vimRoute,
  ex: vimRoute,
  view: vimRoute,
  vimdiff: vimRoute,
  gvim: vimRoute,
  gdb: gdbRoute,
  sqlite3: sqliteRoute,
  sqlite: sqliteRoute,
  make: makeRoute,
  gmake: makeRoute,
  sed: sedRoute,
  gsed: sedRoute,
  expect: tclRoute,
  tclsh: tclRoute,
  wish: tclRoute,
  emacs: emacsRoute,
};
