/**
 * Questions the runtime asks about a whole command line, answered from its analysis: does it only
 * read, may it run beside other calls, can it destroy something.
 * Every answer is false (or "unknown") when in doubt.
 */
import path from 'node:path';
import type { Analysis, Leaf } from './analysis.js';
import { isReadOnlyCommand } from './read-only.js';
import { DANGEROUS_VARS } from './wrappers.js';

export function isReadOnlyLeaf(leaf: Leaf): boolean {
  return !leaf.runsCode && isReadOnlyCommand(leaf.words);
}

/** Every command read-only, no redirect writes a file, nothing unreadable. */
export function isReadOnlyAnalysis(a: Analysis): boolean {
  if (a.problems.length || a.writes.length || a.assigned.some((v) => DANGEROUS_VARS.has(v))) return false;
  return a.leaves.every((l) => l.denyOnly || isReadOnlyLeaf(l));
}

const CD = new Set(['cd', 'pushd', 'popd']);

/** A `cd` moves the session's working directory: such a call changes shared state. */
export function changesDirectory(a: Analysis): boolean {
  return a.leaves.some((l) => CD.has(l.words[0]?.value ?? ''));
}

const DESTRUCTIVE = new Set([
  'rm',
  'rmdir',
  'shred',
  'dd',
  'truncate',
  'mv',
  'wipefs',
  'fdisk',
  'parted',
  'mkswap',
  'kill',
  'pkill',
  'killall',
  'unlink',
  'srm',
]);

/** Commands that delete, overwrite or kill: the runtime shows them with a stronger prompt. */
export function isDestructiveAnalysis(a: Analysis): boolean {
  if (a.commands.some((c) => c.redirects.some((r) => r.kind === 'write' && (r.op === '>' || r.op === '>|' || r.op === '&>')) && !isHarmless(c))) {
    return true;
  }
  return a.leaves.some((l) => isDestructiveLeaf(l));
}

function isHarmless(c: Analysis['commands'][number]): boolean {
  return c.redirects.every((r) => r.kind !== 'write' || r.target?.value === '/dev/null');
}

function isDestructiveLeaf(leaf: Leaf): boolean {
  const [name, ...args] = leaf.words.map((w) => w.value);
  if (!name) return false;
  const base = path.posix.basename(name);
  if (DESTRUCTIVE.has(base) || base.startsWith('mkfs')) return true;
  if (base === 'find') return args.includes('-delete');
  if ((base === 'chmod' || base === 'chown') && args.some((x) => /^-[a-zA-Z]*R/.test(x) || x === '--recursive')) return true;
  if (base !== 'git') return false;
  const sub = args.find((x) => !x.startsWith('-'));
  if (sub === 'clean' || sub === 'restore') return true;
  if (sub === 'reset') return args.includes('--hard');
  if (sub === 'push') return args.some((x) => x === '-f' || x.startsWith('--force') || x === '--delete' || x.startsWith('+'));
  if (sub === 'checkout') return args.includes('--') || args.includes('.') || args.includes('-f');
  if (sub === 'branch') return args.some((x) => x === '-D' || x === '--delete' || x === '-d');
  if (sub === 'stash') return args.includes('drop') || args.includes('clear');
  return false;
}
