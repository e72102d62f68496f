/**
 * Programs that read the content of every file under a folder, and which folders: the one table of
 * them. `grep -r`, `rg`, `ag`, `ack`, git's content printers (tree-readers-git.ts), `tar c`, `zip -r`, `7z a`, `cp -r`,
 * `rsync -r`, `scp -r`, `diff -r`, `find … -exec <reader>`, `fd -x <reader>`, and `xargs <reader>`
 * fed by a program listing a tree (`find`, `fd`, `rg --files`, `git ls-files`).
 *
 * Programs that only list names (`ls -R`, `find` without -exec, `tree`, `du`, `rg --files`) are not
 * here: they show names, not content.
 */
import path from 'node:path';
import type { Leaf } from './analysis.js';
import type { SimpleCommand } from './parse.js';
import { positionalWords } from './route-kit.js';
import { literalOutput } from './stdin.js';
import { cp, diff, isValueOf, remoteCopy, sevenZip, tar, zip } from './tree-readers-archive.js';
import { DOT, flag, has, type Reader, type TreeRead } from './tree-read-kit.js';
import { git } from './tree-readers-git.js';
import { literalWord, type Word } from './words.js';

export type { TreeRead, TreeRoot } from './tree-read-kit.js';

/** Operands of a search: the pattern first unless -e/-f/--regexp/--file gives it; `.` by default. */
function searchRoots(words: Word[], valueOptions: string[]): Word[] {
  const args = words.slice(1);
  const out: Word[] = [];
  let explicit = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (/^(-e|-f|--regexp|--file)$/.test(v)) {
      explicit = true;
      i++;
    } else if (/^(--regexp|--file)=/.test(v) || /^-[ef]./.test(v)) explicit = true;
    else if (valueOptions.includes(v)) i++;
    else if (!v.startsWith('-') || v === '-') out.push(args[i]!);
  }
  const paths = explicit ? out : out.slice(1);
  return paths.length ? paths : [DOT];
}

const GREP_VALUES = [
  '-A',
  '-B',
  '-C',
  '-m',
  '-d',
  '-D',
  '--include',
  '--exclude',
  '--exclude-dir',
  '--label',
  '--color',
  '--colour',
  '--binary-files',
  '--devices',
  '--directories',
  '--context',
  '--after-context',
  '--before-context',
  '--max-count',
];

const grep: Reader = (words) => {
  const name = path.posix.basename(words[0]!.value);
  const recursive =
    name === 'rgrep' ||
    flag(words, 'rR', ['--recursive', '--dereference-recursive', '--directories=recurse']) ||
    words.some((w, i) => w.value === '-d' && words[i + 1]?.value === 'recurse');
  if (!recursive) return undefined;
  return { label: `${name} -r`, roots: searchRoots(words, GREP_VALUES).map((word) => ({ word })), followLinks: flag(words, 'R', ['--dereference-recursive']) };
};

const RG_VALUES = [
  '-g',
  '--glob',
  '--iglob',
  '-t',
  '--type',
  '-T',
  '--type-not',
  '-A',
  '-B',
  '-C',
  '-m',
  '-M',
  '-j',
  '--threads',
  '--max-depth',
  '-d',
  '--max-filesize',
  '--type-add',
  '--sort',
  '--sortr',
  '-E',
  '--encoding',
  '--color',
  '--colors',
  '-r',
  '--replace',
  '--pre',
  '--pre-glob',
  '--path-separator',
  '--context-separator',
  '--field-match-separator',
  '--field-context-separator',
  '--ignore-file',
  '--max-columns',
  '--dfa-size-limit',
  '--regex-size-limit',
];

/** rg, ag, ack, pt, sift, ugrep: recursive by default; `--files` and friends list names only. */
const searcher: Reader = (words) => {
  if (has(words, '--files', '-l', '--files-with-matches', '--files-without-match', '--type-list', '--version', '-h', '--help', '-c', '--count')) {
    if (has(words, '--files', '--type-list', '--version', '-h', '--help')) return undefined;
  }
  const name = path.posix.basename(words[0]!.value);
  if ((name === 'ugrep' || name === 'ug') && !flag(words, 'rR', ['--recursive', '--dereference-recursive']) && searchRoots(words, RG_VALUES)[0] !== DOT)
    return undefined;
  return {
    label: name,
    roots: searchRoots(words, RG_VALUES).map((word) => ({ word })),
    followLinks: flag(words, 'LfR', ['--follow', '--dereference-recursive']),
  };
};

/** cpio -o / -p and pax -w archive the files named on their input (or pax's operands). */
const namesOnInput: Reader = (words, leaf) => {
  const name = path.posix.basename(words[0]!.value);
  const creating = name === 'pax' ? flag(words, 'w') : flag(words, 'op', ['--create', '--pass-through']);
  if (!creating) return undefined;
  const operands = name === 'pax' ? positionalWords(words).filter((w) => !isValueOf([], w, words, ['-f', '-s', '-x', '-b', '-o'])) : [];
  if (operands.length) return { label: `${name} -w`, roots: operands.map((word) => ({ word })), followLinks: flag(words, 'LH') };
  const from = leaf.source.pipedFrom;
  const tree = from && from !== 'opaque' ? listedTree(from) : undefined;
  if (tree) return { ...tree, label: `${tree.label} | ${name}` };
  return { label: name, roots: [], followLinks: false, unknown: `${name} archives files named by input only known when it runs` };
};

/** Programs that show only names (or nothing) of the files they are given. */
export const NAME_ONLY = new Set([
  'ls',
  'echo',
  'printf',
  'basename',
  'dirname',
  'stat',
  'realpath',
  'readlink',
  'test',
  '[',
  'true',
  'false',
  'du',
  'printenv',
]);

/** The start folders of `find` (before its first expression), `.` by default. */
function findStarts(words: Word[]): Word[] {
  const out: Word[] = [];
  for (const w of words.slice(1)) {
    if (/^[-(!]/.test(w.value) && !['-H', '-L', '-P'].includes(w.value)) break;
    if (!w.value.startsWith('-')) out.push(w);
  }
  return out.length ? out : [DOT];
}

/** find … -exec <reader> {} — the reader gets every file under the start folders. */
const find: Reader = (words) => {
  const execs = words.map((w, i) => (['-exec', '-execdir', '-ok', '-okdir'].includes(w.value) ? i : -1)).filter((i) => i >= 0);
  const readers = execs.filter((i) => !NAME_ONLY.has(path.posix.basename(words[i + 1]?.value ?? '')));
  if (!readers.length) return undefined;
  const program = path.posix.basename(words[readers[0]! + 1]?.value ?? '?');
  return { label: `find -exec ${program}`, roots: findStarts(words).map((word) => ({ word })), followLinks: has(words, '-L', '-follow') };
};

/** fd PATTERN [PATH…] -x <reader>. */
const fd: Reader = (words) => {
  const at = words.findIndex((w) => ['-x', '--exec', '-X', '--exec-batch'].includes(w.value));
  if (at < 0 || NAME_ONLY.has(path.posix.basename(words[at + 1]?.value ?? ''))) return undefined;
  const pos = positionalWords(words.slice(0, at)).slice(1);
  return {
    label: `${path.posix.basename(words[0]!.value)} -x`,
    roots: (pos.length ? pos : [DOT]).map((word) => ({ word })),
    followLinks: has(words, '-L', '--follow'),
  };
};

/** Programs whose output is a list of files under a tree (what `xargs` then reads). */
function listedTree(cmd: SimpleCommand): TreeRead | undefined {
  const words = cmd.words;
  const name = path.posix.basename(words[0]?.value ?? '');
  if (name === 'find') return { label: 'find', roots: findStarts(words).map((word) => ({ word })), followLinks: has(words, '-L') };
  if (name === 'fd' || name === 'fdfind') {
    const pos = positionalWords(words).slice(1);
    return { label: name, roots: (pos.length ? pos : [DOT]).map((word) => ({ word })), followLinks: has(words, '-L', '--follow') };
  }
  if ((name === 'rg' || name === 'ag') && has(words, '--files', '-l', '-g'))
    return { label: name, roots: searchRoots(words, RG_VALUES).map((word) => ({ word })), followLinks: false };
  if (name === 'git' && words.some((w) => w.value === 'ls-files')) return { label: 'git ls-files', roots: [{ repo: true }], followLinks: false };
  if (name === 'ls' && flag(words, 'R'))
    return { label: 'ls -R', roots: (positionalWords(words).length ? positionalWords(words) : [DOT]).map((word) => ({ word })), followLinks: false };
  return undefined;
}

/** xargs <reader>: the files come from its input — a lister's tree, literal names, or unknown. */
const xargs: Reader = (words, leaf) => {
  const inner = words.slice(1).find((w) => !w.value.startsWith('-'));
  if (inner && NAME_ONLY.has(path.posix.basename(inner.value))) return undefined;
  const label = `xargs ${inner ? path.posix.basename(inner.value) : 'echo'}`;
  const from = leaf.source.pipedFrom;
  if (from && from !== 'opaque') {
    const tree = listedTree(from);
    if (tree) return { ...tree, label: `${tree.label} | ${label}` };
    const text = literalOutput(from);
    if (text !== undefined)
      return {
        label,
        roots: text
          .split(/\s+/)
          .filter(Boolean)
          .map((t) => ({ word: literalWord(t) })),
        followLinks: false,
      };
  }
  const doc = leaf.source.redirects.find((r) => r.kind === 'heredoc' || r.kind === 'herestring');
  if (doc?.bodyLiteral)
    return {
      label,
      roots: (doc.body ?? '')
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => ({ word: literalWord(t) })),
      followLinks: false,
    };
  return { label, roots: [], followLinks: false, unknown: `${label} reads files named by input only known when it runs` };
};

export const TREE_READERS: Readonly<Record<string, Reader>> = {
  grep,
  egrep: grep,
  fgrep: grep,
  zgrep: grep,
  rgrep: grep,
  rg: searcher,
  ripgrep: searcher,
  ag: searcher,
  ack: searcher,
  'ack-grep': searcher,
  pt: searcher,
  sift: searcher,
  ugrep: searcher,
  ug: searcher,
  git,
  tar,
  bsdtar: tar,
  gtar: tar,
  zip,
  '7z': sevenZip,
  '7za': sevenZip,
  '7zr': sevenZip,
  cp,
  gcp: cp,
  rsync: remoteCopy,
  scp: remoteCopy,
  diff,
  cpio: namesOnInput,
  pax: namesOnInput,
  find,
  fd,
  fdfind: fd,
  xargs,
};

/** The tree a leaf reads, if its program is in the table. */
export function treeReadOf(leaf: Leaf): TreeRead | undefined {
  const name = leaf.words[0];
  if (!name?.literal) return undefined;
  const reader = TREE_READERS[path.posix.basename(name.value)];
  return reader?.(leaf.words, leaf);
}
