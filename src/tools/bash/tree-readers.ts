/**
 * Programs that read the content of every file under a folder, and which folders: the one table of
 * them. `grep -r`, `rg`, `ag`, `ack`, `git grep`, `git archive`, `tar c`, `zip -r`, `7z a`, `cp -r`,
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
import { literalWord, type Word } from './words.js';

/** A folder read recursively: a word (resolved against the command's directory), or the git work tree. */
export type TreeRoot = { word: Word; cwd?: Word } | { repo: true; from?: Word };

export interface TreeRead {
  /** Short name for the reason ("grep -r", "tar c"). */
  label: string;
  roots: TreeRoot[];
  /** Follows symbolic links below the folder. */
  followLinks: boolean;
  /** The folders are only known when it runs (`tar -T list`, `xargs` fed by a file). */
  unknown?: string;
}

type Reader = (words: Word[], leaf: Leaf) => TreeRead | undefined;

const DOT = literalWord('.');
const has = (words: Word[], ...opts: string[]): boolean => words.some((w) => opts.includes(w.value));
/** A short option letter alone or in a cluster (`-rn`), or one of the long forms. */
function flag(words: Word[], letters: string, longs: string[] = []): boolean {
  return words.some(
    (w) =>
      (/^-[A-Za-z0-9]+$/.test(w.value) && [...letters].some((l) => w.value.slice(1).includes(l))) ||
      longs.some((l) => w.value === l || w.value.startsWith(`${l}=`)),
  );
}

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

/** git grep and git archive read the work tree (or `-C dir`'s); `git grep … -- paths` only those paths. */
const git: Reader = (words) => {
  let i = 1;
  let from: Word | undefined;
  for (; i < words.length && words[i]!.value.startsWith('-'); i++) {
    const v = words[i]!.value;
    if (v === '-C') from = words[++i];
    else if (v === '-c' || v === '--git-dir' || v === '--work-tree' || v === '--namespace') i++;
  }
  const sub = words[i]?.value;
  const rest = words.slice(i + 1);
  const repo: TreeRoot = from ? { repo: true, from } : { repo: true };
  if (sub === 'archive') return { label: 'git archive', roots: [repo], followLinks: false };
  if (sub !== 'grep') return undefined;
  const dash = rest.findIndex((w) => w.value === '--');
  const specs = dash >= 0 ? rest.slice(dash + 1) : [];
  if (!specs.length) return { label: 'git grep', roots: [repo], followLinks: false };
  return { label: 'git grep', roots: specs.map((word) => (from ? { word, cwd: from } : { word })), followLinks: false };
};

/** tar c/r/u (create, append, update): every operand, relative to the last `-C dir` before it. */
const tar: Reader = (words) => {
  const first = words[1]?.value ?? '';
  const oldStyle = !first.startsWith('-') && /^[A-Za-z]+$/.test(first);
  const creating = (oldStyle && /[cru]/.test(first)) || flag(words, 'cru', ['--create', '--append', '--update']);
  if (!creating) return undefined;
  if (has(words, '-T', '--files-from') || words.some((w) => w.value.startsWith('--files-from=') || w.value.startsWith('-T'))) {
    return { label: 'tar c', roots: [], followLinks: false, unknown: 'tar reads the list of files to archive from a file' };
  }
  const roots: TreeRoot[] = [];
  let cwd: Word | undefined;
  const valued = new Set([
    '-f',
    '--file',
    '-C',
    '--directory',
    '-b',
    '-H',
    '--format',
    '-I',
    '--use-compress-program',
    '-X',
    '--exclude-from',
    '-K',
    '-N',
    '-V',
    '--label',
    '--exclude',
    '--transform',
    '--owner',
    '--group',
    '--mode',
    '--mtime',
    '-g',
    '--listed-incremental',
    '--to-command',
    '--checkpoint-action',
    '-F',
    '--info-script',
  ]);
  const args = words.slice(oldStyle ? 2 : 1);
  if (oldStyle && first.includes('f')) args.shift();
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-C' || v === '--directory') cwd = args[++i];
    else if (v.startsWith('--directory=')) cwd = { ...args[i]!, value: v.slice(12) };
    else if (valued.has(v) || (/^-[A-Za-z]*f$/.test(v) && !v.startsWith('--'))) i++;
    else if (!v.startsWith('-')) roots.push(cwd ? { word: args[i]!, cwd } : { word: args[i]! });
  }
  return { label: 'tar c', roots, followLinks: flag(words, 'h', ['--dereference']) };
};

/** zip -r ARCHIVE paths…: `-@` takes names from stdin. */
const zip: Reader = (words) => {
  if (!flag(words, 'rR', ['--recurse-paths', '--recurse-patterns'])) return undefined;
  if (has(words, '-@', '--names-stdin')) return { label: 'zip -r', roots: [], followLinks: true, unknown: 'zip reads the names to archive from its input' };
  const operands = positionalWords(words).filter(
    (w, i, all) => !isValueOf(all, w, words, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-Z', '-TT', '-O', '--out']),
  );
  return { label: 'zip -r', roots: operands.slice(1).map((word) => ({ word })), followLinks: !flag(words, 'y', ['--symlinks']) };
};

function isValueOf(_all: Word[], w: Word, words: Word[], options: string[]): boolean {
  const i = words.indexOf(w);
  return i > 0 && options.includes(words[i - 1]!.value);
}

/** 7z a ARCHIVE paths… (recursive by default). */
const sevenZip: Reader = (words) => {
  const pos = positionalWords(words);
  if (pos[0]?.value !== 'a' && pos[0]?.value !== 'u') return undefined;
  const files = pos.slice(2);
  return { label: '7z a', roots: (files.length ? files : [DOT]).map((word) => ({ word })), followLinks: false };
};

/** cp -r / -R / -a SOURCES… DEST; `-t DEST` puts the destination first. */
const cp: Reader = (words) => {
  if (!flag(words, 'rRa', ['--recursive', '--archive'])) return undefined;
  // `-t DIR`, `-rt DIR`, `-tDIR`, `--target-directory=DIR`: every operand is a source.
  const target = words.findIndex((w) => /^-[A-Za-z]*t$/.test(w.value) || w.value === '--target-directory');
  const attached = words.some((w) => /^-[A-Za-z]*t./.test(w.value) || w.value.startsWith('--target-directory='));
  const pos = positionalWords(words).filter((w) => target < 0 || words.indexOf(w) !== target + 1);
  const sources = target >= 0 || attached ? pos : pos.slice(0, -1);
  return { label: `${path.posix.basename(words[0]!.value)} -r`, roots: sources.map((word) => ({ word })), followLinks: flag(words, 'L', ['--dereference']) };
};

/** rsync -r / -a and scp -r: local sources (not `host:path`), the last operand being the destination. */
const remoteCopy: Reader = (words) => {
  const name = path.posix.basename(words[0]!.value);
  const recursive = name === 'scp' ? flag(words, 'r') : flag(words, 'ra', ['--recursive', '--archive']);
  if (!recursive) return undefined;
  const valued = [
    '-e',
    '--rsh',
    '-i',
    '-o',
    '-P',
    '-p',
    '-F',
    '-S',
    '-l',
    '-c',
    '-J',
    '--exclude',
    '--include',
    '--filter',
    '-f',
    '--rsync-path',
    '--files-from',
    '--exclude-from',
    '--include-from',
  ];
  if (words.some((w) => w.value.startsWith('--files-from')))
    return { label: `${name} -r`, roots: [], followLinks: false, unknown: `${name} reads the list of files from a file` };
  const pos = positionalWords(words).filter((w) => !isValueOf([], w, words, valued));
  const sources = pos.slice(0, -1).filter((w) => !/^[^/]*:/.test(w.value));
  return { label: `${name} -r`, roots: sources.map((word) => ({ word })), followLinks: flag(words, 'L', ['--copy-links']) };
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

/** diff -r A B reads both trees. */
const diff: Reader = (words) => {
  if (!flag(words, 'r', ['--recursive'])) return undefined;
  return { label: 'diff -r', roots: positionalWords(words).map((word) => ({ word })), followLinks: false };
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
