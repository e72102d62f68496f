/**
 * The tree readers that archive, copy or compare (tar c, zip -r, 7z a, cp -r, rsync -r, scp -r,
 * diff -r): which folders they read in full. Part of tree-readers.ts's table.
 */
import path from 'node:path';
import { positionalWords } from './route-kit.js';
import { DOT, flag, has, type Reader, type TreeRoot } from './tree-read-kit.js';
import type { Word } from './words.js';

/** tar c/r/u (create, append, update): every operand, relative to the last `-C dir` before it. */
export const tar: Reader = (words) => {
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
export const zip: Reader = (words) => {
  if (!flag(words, 'rR', ['--recurse-paths', '--recurse-patterns'])) return undefined;
  if (has(words, '-@', '--names-stdin')) return { label: 'zip -r', roots: [], followLinks: true, unknown: 'zip reads the names to archive from its input' };
  const operands = positionalWords(words).filter(
    (w, i, all) => !isValueOf(all, w, words, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-Z', '-TT', '-O', '--out']),
  );
  return { label: 'zip -r', roots: operands.slice(1).map((word) => ({ word })), followLinks: !flag(words, 'y', ['--symlinks']) };
};

export function isValueOf(_all: Word[], w: Word, words: Word[], options: string[]): boolean {
  const i = words.indexOf(w);
  return i > 0 && options.includes(words[i - 1]!.value);
}

/** 7z a ARCHIVE paths… (recursive by default). */
export const sevenZip: Reader = (words) => {
  const pos = positionalWords(words);
  if (pos[0]?.value !== 'a' && pos[0]?.value !== 'u') return undefined;
  const files = pos.slice(2);
  return { label: '7z a', roots: (files.length ? files : [DOT]).map((word) => ({ word })), followLinks: false };
};

/** cp -r / -R / -a SOURCES… DEST; `-t DEST` puts the destination first. */
export const cp: Reader = (words) => {
  if (!flag(words, 'rRa', ['--recursive', '--archive'])) return undefined;
  // `-t DIR`, `-rt DIR`, `-tDIR`, `--target-directory=DIR`: every operand is a source.
  const target = words.findIndex((w) => /^-[A-Za-z]*t$/.test(w.value) || w.value === '--target-directory');
  const attached = words.some((w) => /^-[A-Za-z]*t./.test(w.value) || w.value.startsWith('--target-directory='));
  const pos = positionalWords(words).filter((w) => target < 0 || words.indexOf(w) !== target + 1);
  const sources = target >= 0 || attached ? pos : pos.slice(0, -1);
  return { label: `${path.posix.basename(words[0]!.value)} -r`, roots: sources.map((word) => ({ word })), followLinks: flag(words, 'L', ['--dereference']) };
};

/** rsync -r / -a and scp -r: local sources (not `host:path`), the last operand being the destination. */
export const remoteCopy: Reader = (words) => {
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

/** diff -r A B reads both trees. */
export const diff: Reader = (words) => {
  if (!flag(words, 'r', ['--recursive'])) return undefined;
  return { label: 'diff -r', roots: positionalWords(words).map((word) => ({ word })), followLinks: false };
};
