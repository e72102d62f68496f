/**
 * The files a Bash command showed the model, as Claude Code 2.1 counts them for the instruction
 * files a touch brings (subfolder CLAUDE.md files, rules whose `paths:` match): a command line with no
 * pipe and no redirection (no `|`, `<` or `>` anywhere), made of simple commands each of which is
 * `cat [-n]`, `nl`, `bat`/`batcat [-n|-p]`, `head`/`tail [-n N|-N]` or `sed -n 'N[,M]p'` of one file
 * (`echo`, `printf`, `true` and `:` may stand beside them), or, alone, `grep`/`egrep`/`fgrep`/`rg` of
 * one pattern in one file that exited 0. A file counts when it is a regular file of at most 10 MB
 * whose shown part is in the command's output (unless the output was cut, or for grep); `less`,
 * `more` and the rest count for nothing, as in Claude Code.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isBashParserReady, parseScript } from './parse.js';

const MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_LINES = 10;
const BESIDE = new Set(['echo', 'printf', 'true', ':']);
const CAT_OPTIONS: Record<string, ReadonlySet<string>> = {
  cat: new Set(['-n', '--number']),
  nl: new Set(),
  bat: new Set(['-n', '--number', '-p', '--plain']),
  batcat: new Set(['-n', '--number', '-p', '--plain']),
};
const GREP_SHORT = /^-[niwxEFGPHh]+$/;
const RG_SHORT = /^-[iSswxFnNHUP]+$/;
const GREP_LONG = new Set([
  '--line-number',
  '--ignore-case',
  '--word-regexp',
  '--line-regexp',
  '--extended-regexp',
  '--fixed-strings',
  '--basic-regexp',
  '--perl-regexp',
  '--with-filename',
  '--no-filename',
  '--color=never',
  '--color=auto',
]);
const RG_LONG = new Set([
  '--ignore-case',
  '--smart-case',
  '--case-sensitive',
  '--word-regexp',
  '--line-regexp',
  '--fixed-strings',
  '--line-number',
  '--no-line-number',
  '--with-filename',
  '--no-filename',
  '--multiline',
  '--pcre2',
]);

/** One file a command shows: which part, and what the output must show of it. */
export interface ShownFile {
  file: string;
  /** Lines shown, 1-based; none: the whole file. */
  start?: number;
  end?: number;
  /** The last lines shown (`tail`). */
  tail?: number;
  /** Output lines carry numbers (`cat -n`, `nl`). */
  numbered?: boolean;
  /** Counts only when the command exited 0, and its output need not hold the file (grep). */
  search?: boolean;
}

/** What the command line shows, as written (paths not resolved); none when it is not a plain read. */
export function filesShownBy(command: string): ShownFile[] {
  if (/[|<>]/.test(command) || !isBashParserReady()) return [];
  let parsed: ReturnType<typeof parseScript>;
  try {
    parsed = parseScript(command);
  } catch {
    return [];
  }
  const { commands } = parsed;
  if (parsed.problems.length || !commands.length) return [];
  const out: ShownFile[] = [];
  for (const c of commands) {
    const plain = c.topLevel && !c.inSubstitution && !c.redirects.length && !c.assignments.length && c.words.every((w) => w.literal);
    if (!plain) return [];
    const argv = c.words.map((w) => w.value);
    const shown = sedLines(argv) ?? catLike(argv) ?? headOrTail(argv) ?? (commands.length === 1 ? grepOne(argv) : undefined);
    if (shown) out.push(shown);
    else if (commands.length > 1 && !BESIDE.has(argv[0] ?? '')) return [];
  }
  return out;
}

function sedLines(argv: string[]): ShownFile | undefined {
  if (argv[0] !== 'sed') return undefined;
  let quiet = false;
  const rest: string[] = [];
  for (const a of argv.slice(1)) {
    if (a === '--quiet' || a === '--silent') quiet = true;
    else if (a.startsWith('--')) {
      if (a === '--expression' || a.startsWith('--in-place')) return undefined;
    } else if (a.startsWith('-')) {
      if (a.includes('i') || a === '-e') return undefined;
      if (a.includes('n')) quiet = true;
    } else rest.push(a);
  }
  if (!quiet || rest.length !== 2) return undefined;
  const range = /^(\d+)(?:,(\d+))?p$/.exec(rest[0]!);
  return range ? { file: rest[1]!, start: Number(range[1]), end: Number(range[2] ?? range[1]) } : undefined;
}

function catLike(argv: string[]): ShownFile | undefined {
  const allowed = CAT_OPTIONS[argv[0] ?? ''];
  if (!allowed) return undefined;
  let file: string | undefined;
  for (const a of argv.slice(1)) {
    if (a.startsWith('-') && a !== '-') {
      if (!allowed.has(a)) return undefined;
    } else if (file !== undefined) return undefined;
    else file = a;
  }
  if (file === undefined || file === '-') return undefined;
  const numbered = argv[0] === 'nl' || argv.includes('-n') || argv.includes('--number');
  return { file, ...(numbered ? { numbered } : {}) };
}

function headOrTail(argv: string[]): ShownFile | undefined {
  if (argv[0] !== 'head' && argv[0] !== 'tail') return undefined;
  let count: number | undefined;
  let file: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const n =
      a === '-n' || a === '--lines'
        ? argv[++i]
        : a.startsWith('--lines=')
          ? a.slice(8)
          : /^-n\d+$/.test(a)
            ? a.slice(2)
            : /^-\d+$/.test(a)
              ? a.slice(1)
              : undefined;
    if (n !== undefined) {
      if (!/^\d+$/.test(n)) return undefined;
      count = Number(n);
    } else if (a.startsWith('-') || file !== undefined) return undefined;
    else file = a;
  }
  if (file === undefined || file === '-' || count === 0) return undefined;
  const lines = count ?? DEFAULT_LINES;
  return argv[0] === 'head' ? { file, start: 1, end: lines } : { file, tail: lines };
}

function grepOne(argv: string[]): ShownFile | undefined {
  const rg = argv[0] === 'rg';
  if (!rg && !['grep', 'egrep', 'fgrep'].includes(argv[0] ?? '')) return undefined;
  const positional: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    if (['-A', '-B', '-C'].includes(a) || (rg && ['--after-context', '--before-context', '--context'].includes(a))) {
      if (!/^\d+$/.test(argv[++i] ?? '')) return undefined;
      continue;
    }
    const known = /^-[ABC]\d+$/.test(a) || /^--(?:after-context|before-context|context)=\d+$/.test(a) || (rg ? RG_SHORT : GREP_SHORT).test(a);
    if (!known && !(rg ? RG_LONG : GREP_LONG).has(a)) return undefined;
  }
  const file = positional[1];
  if (positional.length !== 2 || file === undefined || file === '-' || /[*?[{]/.test(file)) return undefined;
  return { file, search: true };
}

/**
 * The files (absolute) a finished command showed the model: each of `filesShownBy` that is a regular
 * file of at most 10 MB and whose shown part the output holds (`output` undefined: the output was cut,
 * and what was shown cannot be told, so it counts); grep only when it exited 0.
 */
export function filesShownInOutput(command: string, cwd: string, exitedZero: boolean, output: string | undefined): string[] {
  const out: string[] = [];
  for (const shown of filesShownBy(command)) {
    if (shown.search && !exitedZero) continue;
    const file = path.resolve(cwd, shown.file);
    const text = regularText(file);
    if (text === undefined) continue;
    const part = partOf(text, shown);
    if (part === undefined || (!part.trim() && text.trim())) continue;
    if (output !== undefined && !shown.search && !holds(output, part, shown.numbered === true)) continue;
    if (!out.includes(file)) out.push(file);
  }
  return out;
}

function regularText(file: string): string | undefined {
  try {
    const st = statSync(file);
    return st.isFile() && st.size <= MAX_BYTES ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function partOf(text: string, shown: ShownFile): string | undefined {
  const lines = text.split('\n');
  if (shown.tail !== undefined) {
    if (lines.at(-1) === '') lines.pop();
    return lines.length ? lines.slice(-shown.tail).join('\n') : undefined;
  }
  if (shown.start === undefined) return text;
  if (shown.start > lines.length) return undefined;
  return lines.slice(shown.start - 1, Math.max(shown.start, shown.end ?? shown.start)).join('\n');
}

/** The output holds the part (blank lines around it aside); numbered output is read without its numbers. */
function holds(output: string, part: string, numbered: boolean): boolean {
  const want = part.replace(/^(\s*\n)+/, '').trimEnd();
  const got = output.replaceAll('\r\n', '\n');
  if (got.includes(want)) return true;
  return numbered && got.split('\n').map(withoutNumber).join('\n').includes(want);
}

function withoutNumber(line: string): string {
  const m = /^[ \t]*\d+[ \t]/.exec(line);
  return m ? line.slice(m[0].length) : /^[ \t]*$/.test(line) ? '' : line;
}
