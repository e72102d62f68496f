/**
 * One-liners in other languages (`python3 -c`, `perl -e`, `ruby -e`, `node -e`, `php -r`, `lua -e`,
 * awk programs, `Rscript -e`, `osascript -e`) and programs they read from stdin.
 *
 * A Bash rule names the programs a command line runs. An interpreter runs a program when its code
 * calls the shell or a process (`os.system('rm x')`, `` `rm x` ``, `system("rm x")`,
 * `execSync('rm x')`): when every such call has literal arguments, the command it runs is parsed and
 * matched like any other; when one does not (`os.system(cmd)`), or the code can reach them in ways
 * that cannot be read (`eval`, `getattr`, `__import__`, `send`…), the line is unreadable — denied
 * while a Bash deny rule exists, asked otherwise. Code that runs no process (`print(1)`, file I/O)
 * is not a command and no Bash rule applies to it. Script files (`python3 x.py`) are not read.
 * This is a reading of the text, not a sandbox: the OS sandbox is what holds for any program.
 */
import type { Frame, Walk } from './analysis.js';
import { lex, literalArguments, type LexRules } from './code-lexer.js';
import { guessFrame, optionValues, partOf, type Route } from './route-kit.js';
import { codeFileKind } from './stdin.js';
import { literalWord, type Word } from './words.js';

export interface CodeScan {
  /** Command lines the code runs in a shell (or as a program with arguments). */
  commands: string[];
  /** Every string literal's value (file names among them are checked against Read deny rules). */
  strings?: string[];
  /** Why the code's commands cannot be read; undefined when they can. */
  unknown?: string;
}

interface Language {
  lex: LexRules;
  /** Calls that run a command (global regex on the code, literals blanked); arguments follow the match. */
  sites: RegExp;
  /** Names that reach code or processes in ways that cannot be read. */
  dynamic: RegExp;
  /** A string literal naming one of these is a call by name (`array_map('system', …)`, `cp['exec']`). */
  siteNames?: RegExp;
  keywordArgs?: boolean;
  extra?: (text: string, masked: string, values: string[], out: CodeScan) => void;
}

const interpolatesWith = (re: RegExp, quotes: string) => (q: string, raw: string) => quotes.includes(q) && re.test(raw.replace(/\\./g, ''));

const PYTHON: Language = {
  lex: { quotes: `'"`, lineComment: '#', python: true, interpolates: (_q, raw, prefix) => prefix.includes('f') && raw.includes('{') },
  sites:
    /\b(?:os|posix|nt)\s*\.\s*(?:system|popen\d?|exec\w*|spawn\w*|posix_spawnp?|startfile)\b|\bsubprocess\s*\.\s*(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\b|\bpty\s*\.\s*spawn\b|\bcommands\s*\.\s*\w+|\basyncio\s*\.\s*create_subprocess_(?:exec|shell)\b|\bplatform\s*\.\s*popen\b/g,
  dynamic:
    /(?<![.\w])(?:eval|exec|compile|vars|globals|locals|getattr|setattr|delattr|__import__|execfile|breakpoint)\b|\b(?:importlib|runpy|ctypes|cffi|pickle|cPickle|marshal|shelve|dill|pdb|builtins|pexpect|plumbum|webbrowser|multiprocessing|methodcaller|attrgetter|fork\w*)\b|__(?!name__|file__|main__|version__|doc__|init__)\w+__/,
  siteNames: /^(system|popen|exec\w*|spawn\w*|posix_spawnp?|run|call|check_call|check_output|Popen|getoutput|getstatusoutput)$/,
  keywordArgs: true,
  extra: pythonModules,
};

/** `import os` is fine; `from os import system`, `import subprocess as sp`, `x = os` hide a call. */
function pythonModules(_text: string, masked: string, _values: string[], out: CodeScan): void {
  const mods = 'os|posix|nt|subprocess|pty|commands|asyncio|platform';
  const from = new RegExp(`\\bfrom\\s+(?:${mods})\\s+import\\s+([^;\\n]*)`).exec(masked);
  if (
    from &&
    /\*|\b(system|popen\w*|exec\w*|spawn\w*|posix_spawnp?|run|call|check_\w+|Popen|getoutput|getstatusoutput|create_subprocess_\w+|fork\w*)\b/.test(from[1]!)
  ) {
    out.unknown ??= `it imports a way to run programs: ${from[0].trim()}`;
  }
  for (const m of masked.matchAll(new RegExp(`\\b(?:${mods})\\b(?!\\s*\\.)`, 'g'))) {
    const before = masked.slice(0, m.index).split(/[;\n]/).pop() ?? '';
    if (/^\s*import\s+(?:[\w.]+\s*,\s*)*$/.test(before) && !/^\s*as\b/.test(masked.slice(m.index + m[0].length))) continue;
    if (/^\s*from\s+$/.test(before)) continue;
    out.unknown ??= `it passes the module ${m[0]} around, so what it runs cannot be read`;
  }
}

const PERL: Language = {
  lex: { quotes: `'"`, commandQuotes: '`', lineComment: '#', quoteOperators: 'perl', interpolates: interpolatesWith(/[$@]/, '"`') },
  sites: /(?<![\w$@%&>:])(?:system|exec|readpipe)\b/g,
  dynamic:
    /(?<![\w$@%&>:])(?:eval|syscall|fork|dump)\b|(?<![\w$@%&>:])do\b(?!\s*\{)|(?<![\w$@%&>:])require\b(?!\s+[A-Za-z][\w:]*\s*;?)|CORE::|IPC::|\bPOSIX\b|&\s*[$\\{]|->\s*\(/,
  siteNames: /^(system|exec|readpipe)$/,
  extra: (text, masked, values, out) => {
    if (/\bopen\b/.test(masked) && values.some((v) => v.includes('|'))) out.unknown ??= 'it opens a pipe to a program';
    if (/(?:^|[^\w$@%&])s([^\w\s])(?:(?!\1).)*\1(?:(?!\1).)*\1[a-z]*e/s.test(text)) out.unknown ??= 'a substitution with the e flag runs code';
  },
};

const RUBY: Language = {
  lex: { quotes: `'"`, commandQuotes: '`', lineComment: '#', quoteOperators: 'ruby', interpolates: interpolatesWith(/#\{/, '"`') },
  sites:
    /(?<![\w.:$@])(?:system|exec|spawn)\b|\b(?:Kernel|Process)\s*\.\s*(?:system|exec|spawn)\b|\bIO\s*\.\s*popen\b|\bOpen3\s*\.\s*\w+|\bPTY\s*\.\s*spawn\b/g,
  dynamic:
    /(?<![\w$@])(?:eval|instance_eval|class_eval|module_eval|instance_exec|class_exec|send|public_send|__send__|method|define_method|const_get|binding|load|syscall|fork)\b|\bFiddle\b|(?<![\w$@])require\s*\(?\s*[^'"\s(]/,
  siteNames: /^(system|exec|spawn|popen)$/,
};

const JAVASCRIPT: Language = {
  lex: { quotes: `'"\``, lineComment: '//', interpolates: (q, raw) => q === '`' && /\$\{/.test(raw.replace(/\\./g, '')) },
  sites: /(?<![\w$])(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)\s*(?=\()/g,
  dynamic:
    /(?<![\w$.])(?:eval|Function|Reflect|globalThis|global|constructor|import)\s*[([]|\.constructor\b|\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen|mainModule)\b|\brequire\s*\(\s*(?!['"`])|\b(?:Deno\s*\.\s*(?:run|Command)|Bun\s*\.\s*(?:spawn|spawnSync|\$))/,
  siteNames: /^(exec|execSync|spawn|spawnSync|execFile|execFileSync|fork)$/,
  extra: (_text, _masked, values, out) => {
    if (values.some((v) => /^(node:)?(vm|worker_threads|cluster|module|inspector)$/.test(v))) out.unknown ??= 'it loads a module that runs code';
  },
};

const PHP: Language = {
  lex: { quotes: `'"`, commandQuotes: '`', lineComment: '//', interpolates: interpolatesWith(/\$/, '"`') },
  sites: /(?<![\w$>:])(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|expect_popen)\s*(?=\()/g,
  dynamic:
    /(?<![\w$>:])(?:eval|assert|create_function|call_user_func|call_user_func_array|include|include_once|require|require_once|dl|ReflectionFunction|preg_replace)\b|\$\w+\s*\(/,
  siteNames: /^(system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)$/,
};

const LUA: Language = {
  lex: { quotes: `'"`, lineComment: '--', interpolates: () => false },
  sites: /\bos\s*\.\s*execute\b|\bio\s*\.\s*popen\b/g,
  dynamic: /\b(?:load|loadstring|loadfile|dofile|require|_G|_ENV|debug|package|setfenv|getfenv)\b/,
};

const AWK: Language = {
  lex: { quotes: '"', lineComment: '#', interpolates: () => false },
  sites: /\bsystem\s*(?=\()/g,
  dynamic: /@load\b/,
  extra: awkPipes,
};

/** `print | "cmd"`, `"cmd" | getline`, `|&` coprocesses: a literal command, or unreadable. */
function awkPipes(text: string, masked: string, _values: string[], out: CodeScan): void {
  const lexed = lex(text, AWK.lex);
  const byStart = new Map(lexed.literals.map((l) => [l.start, l]));
  const byEnd = new Map(lexed.literals.map((l) => [l.end, l]));
  for (const m of masked.matchAll(/(?<!\|)\|&?(?!\|)/g)) {
    const after = masked.slice(m.index + m[0].length);
    const target = byStart.get(m.index + m[0].length + (/^\s*/.exec(after)?.[0].length ?? 0));
    if (/^\s*getline\b/.test(after)) {
      const before = masked.slice(0, m.index).trimEnd();
      const lit = byEnd.get(before.length);
      if (lit?.value !== undefined) out.commands.push(lit.value);
      else out.unknown ??= 'a command piped into getline is only known when it runs';
    } else if (target?.value !== undefined) out.commands.push(target.value);
    else out.unknown ??= 'it pipes into a command only known when it runs';
  }
}

const R: Language = {
  lex: { quotes: `'"`, lineComment: '#', interpolates: () => false },
  sites: /(?<![\w.])(?:system|system2|shell|pipe)\s*(?=\()/g,
  dynamic: /(?<![\w.])(?:eval|evalq|parse|source|do\.call|get|match\.fun|dyn\.load|sys\.source)\s*\(/,
  siteNames: /^(system|system2|shell|pipe)$/,
};

const APPLESCRIPT: Language = {
  lex: { quotes: '"', lineComment: '--', interpolates: () => false },
  sites: /\bdo\s+shell\s+script\b/g,
  dynamic: /\brun\s+script\b|\bload\s+script\b/,
};

function quote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The commands code in `lang` runs, or why they cannot be read. */
export function scanCode(lang: Language, text: string): CodeScan {
  const out: CodeScan = { commands: [] };
  const lexed = lex(text, lang.lex);
  const values = lexed.literals.flatMap((l) => (l.value === undefined ? [] : [l.value]));
  for (const l of lexed.literals) {
    if (!l.command) continue;
    if (l.value === undefined) out.unknown ??= 'a command in backticks is only known when it runs';
    else out.commands.push(l.value);
  }
  for (const m of lexed.masked.matchAll(lang.sites)) {
    const args = literalArguments(lexed, m.index + m[0].length, { keywordArgs: lang.keywordArgs ?? false });
    if (!args || !args.values.length) out.unknown ??= `${m[0].trim()} runs a command only known when it runs`;
    else out.commands.push(args.values.length === 1 ? args.values[0]! : args.values.map(quote).join(' '));
  }
  const dynamic = lang.dynamic.exec(lexed.masked);
  if (dynamic) out.unknown ??= `${dynamic[0].trim()} may run code that cannot be read`;
  if (lang.siteNames && values.some((v) => lang.siteNames!.test(v))) out.unknown ??= 'it names a way to run programs in a string';
  lang.extra?.(text, lexed.masked, values, out);
  out.strings = values;
  return out;
}

/** Scan each piece of code and hand its commands to the analyzer; unreadable code is a problem. */
function runCode(w: Walk, lang: Language, who: string, code: Word[], inner: Frame): void {
  for (const c of code) {
    if (!c.literal) {
      w.problem(`${who} runs code only known when it runs`);
      continue;
    }
    const scan = scanCode(lang, c.value);
    if (scan.unknown) w.problem(`${who}: ${scan.unknown}`);
    for (const cmd of scan.commands) w.script(cmd, inner);
    // `open('secret/key.txt')`: the strings, as arguments of a guessed command, meet the path rules.
    const strings = (scan.strings ?? []).filter((v) => v !== '' && v.length < 4096);
    if (strings.length) w.leaf([literalWord(who), ...strings.map(literalWord)], guessFrame(inner), []);
  }
}

interface Interpreter {
  lang: Language;
  /** Options whose value is code. */
  code: { shorts: string; longs: string[] };
  /** Options taking a value that is not code (to find the script operand). */
  values: string[];
  /** Options that run a module or file instead of reading stdin. */
  noStdin?: string[];
  /** The first operand is the program (awk). */
  programOperand?: boolean;
}

function interpreter(spec: Interpreter): Route {
  return (w, words, frame, inner, views) => {
    const who = words[0]!.value;
    w.leaf(words, frame, views);
    const code = optionValues(words, spec.code.shorts, spec.code.longs);
    const operands = operandsOf(words, spec);
    const files = spec.programOperand ? optionValues(words, 'f', ['--file']) : operands.slice(0, 1);
    if (spec.programOperand && !code.length && !files.length && operands[0]) code.push(operands[0]);
    runCode(w, spec.lang, who, code, inner);
    const runsModule = words.some((x) => (spec.noStdin ?? []).some((o) => x.value === o || x.value.startsWith(o)));
    if (code.length || runsModule) return;
    // The program from stdin: no program named, `-`, or /dev/stdin and its aliases (files are not read).
    const fromStdin = files.length ? files.some((f) => f.value === '-' || (f.literal && codeFileKind(f.value).kind === 'stdin')) : !spec.programOperand;
    if (files.some((f) => !f.literal || ['descriptor', 'special'].includes(codeFileKind(f.value).kind)))
      w.problem(`${who} runs a program only known when it runs`);
    if (!fromStdin) return;
    const stdin = w.stdin(inner);
    if (stdin.kind === 'text') runCode(w, spec.lang, who, [partOf(words[0]!, stdin.text)], inner);
    else if (stdin.kind === 'unknown') w.problem(`${who} runs a program read from ${stdin.why}`);
  };
}

/** Positional words, skipping the values of options that take one. */
function operandsOf(words: Word[], spec: Interpreter): Word[] {
  const takes = new Set([...spec.values, ...spec.code.longs, ...[...spec.code.shorts].map((c) => `-${c}`)]);
  const out: Word[] = [];
  for (let i = 1; i < words.length; i++) {
    const v = words[i]!.value;
    if (v === '--') return [...out, ...words.slice(i + 1)];
    if (takes.has(v)) i++;
    else if (!v.startsWith('-') || v === '-') out.push(words[i]!);
  }
  return out;
}

const PYTHON_ROUTE = interpreter({ lang: PYTHON, code: { shorts: 'c', longs: [] }, values: ['-W', '-X', '-Q', '-m'], noStdin: ['-m'] });
const NODE_ROUTE = interpreter({
  lang: JAVASCRIPT,
  code: { shorts: 'ep', longs: ['--eval', '--print'] },
  values: ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type'],
});
const PERL_ROUTE = interpreter({ lang: PERL, code: { shorts: 'eE', longs: [] }, values: ['-I', '-M', '-m', '-x'] });
const RUBY_ROUTE = interpreter({ lang: RUBY, code: { shorts: 'e', longs: [] }, values: ['-I', '-r', '-C', '-E'] });
const PHP_ROUTE = interpreter({ lang: PHP, code: { shorts: 'rBRE', longs: [] }, values: ['-c', '-d', '-z'], noStdin: ['-f', '-S', '-a'] });
const LUA_ROUTE = interpreter({ lang: LUA, code: { shorts: 'e', longs: [] }, values: ['-l'] });
const AWK_ROUTE = interpreter({
  lang: AWK,
  code: { shorts: 'e', longs: ['--source'] },
  values: ['-F', '-v', '-f', '--file', '-i', '--include', '--field-separator', '--assign'],
  programOperand: true,
});
const R_ROUTE = interpreter({ lang: R, code: { shorts: 'e', longs: [] }, values: [] });
const OSASCRIPT_ROUTE = interpreter({ lang: APPLESCRIPT, code: { shorts: 'e', longs: [] }, values: ['-l', '-s'] });

/** gawk's `-l ext` / `--load ext` loads compiled code. */
const awkRoute: Route = (w, words, frame, inner, views) => {
  if (optionValues(words, 'l', ['--load']).length) w.problem(`${words[0]!.value} loads an extension`);
  AWK_ROUTE(w, words, frame, inner, views);
};

const PYTHONS = ['python', 'python2', 'python3', 'pypy', 'pypy3', ...Array.from({ length: 10 }, (_, i) => `python3.${i + 6}`), 'python2.7'];

export const INTERPRETER_ROUTES: Readonly<Record<string, Route>> = {
  ...Object.fromEntries(PYTHONS.map((p) => [p, PYTHON_ROUTE])),
  node: NODE_ROUTE,
  nodejs: NODE_ROUTE,
  perl: PERL_ROUTE,
  ruby: RUBY_ROUTE,
  php: PHP_ROUTE,
  lua: LUA_ROUTE,
  luajit: LUA_ROUTE,
  'lua5.1': LUA_ROUTE,
  'lua5.3': LUA_ROUTE,
  'lua5.4': LUA_ROUTE,
  awk: awkRoute,
  gawk: awkRoute,
  mawk: awkRoute,
  nawk: awkRoute,
  Rscript: R_ROUTE,
  R: R_ROUTE,
  osascript: OSASCRIPT_ROUTE,
};

export const LANGUAGES = { python: PYTHON, perl: PERL, ruby: RUBY, javascript: JAVASCRIPT, php: PHP, lua: LUA, awk: AWK, r: R, applescript: APPLESCRIPT };
