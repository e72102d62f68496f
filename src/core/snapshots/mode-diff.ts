/**
 * Which files and folders have another mode now than in a snapshot (session/shadow-modes.ts): a
 * record names only the paths whose mode is not the default its tree implies, so a path's mode
 * is its record's entry, or else the default for what the tree holds there (a file 644 or 755, a
 * folder 755). Only paths in either record can differ beyond what git's trees show.
 */
import type { ShadowRepo } from '../../session/shadow-git.js';
import { defaultMode, type ModeMap } from '../../session/shadow-modes.js';

export interface ModeEntry {
  kind: 'f' | 'd';
  mode: number;
}

export interface ModeChange extends ModeEntry {
  path: string;
  /** The mode now. */
  now: number;
}

/** A path's mode in a snapshot: its record's entry, or the default for what `kinds` (its tree) holds there. */
function modeIn(record: ModeMap, kinds: ReadonlyMap<string, 'f' | 'x' | 'd'>, rel: string): ModeEntry | undefined {
  const e = record.get(rel);
  if (e) return e;
  const k = rel === '' ? 'd' : kinds.get(rel);
  if (!k) return undefined;
  return k === 'd' ? { kind: 'd', mode: defaultMode('d', false) } : { kind: 'f', mode: defaultMode('f', k === 'x') };
}

/** The mode each path of either record had in the snapshot (`tree`, `record`); undefined where it was not there. */
export async function modesThen(repo: ShadowRepo, tree: string, record: ModeMap, now: ModeMap): Promise<Map<string, ModeEntry>> {
  const paths = [...new Set([...record.keys(), ...now.keys()])];
  const kinds = await repo.kinds(tree, paths);
  const out = new Map<string, ModeEntry>();
  for (const p of paths) {
    const e = modeIn(record, kinds, p);
    if (e) out.set(p, e);
  }
  return out;
}

/** The paths whose mode differs from the snapshot (`thenTree`, `then`) to now (`nowTree`, `now`). */
export async function modeChanges(repo: ShadowRepo, thenTree: string, then: ModeMap, nowTree: string, now: ModeMap): Promise<ModeChange[]> {
  const paths = [...new Set([...then.keys(), ...now.keys()])];
  if (!paths.length) return [];
  const [tk, nk] = await Promise.all([repo.kinds(thenTree, paths), repo.kinds(nowTree, paths)]);
  const out: ModeChange[] = [];
  for (const p of paths) {
    const t = modeIn(then, tk, p);
    const n = modeIn(now, nk, p);
    if (t && n && t.kind === n.kind && t.mode !== n.mode) out.push({ path: p, kind: t.kind, mode: t.mode, now: n.mode });
  }
  return out;
}
