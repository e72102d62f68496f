/**
 * The sandbox's view of the filesystem for one launch, from the writable roots, the deny rules'
 * paths (deny-paths.ts) and the protected configuration (protect.ts):
 * - `writable`: the roots, and the folders between a root and a protected path, bound onto
 *   themselves so they cannot be renamed away with it;
 * - `readOnly`: existing paths bound read-only onto themselves (Edit deny, configuration);
 * - `hideDirs` / `hideFiles`: Read-denied folders and files (an empty read-only folder or file in
 *   their place), and the configuration paths that do not exist yet;
 * - `mountPoints`: the hidden paths bubblewrap has to create (leased, see mount-points.ts);
 * - `visible`: a program's own files where the sandbox shows nothing of the host (its /tmp), shown
 *   read-only so that the program can start (an MCP server run from a folder under /tmp).
 * A Read deny that would hide a writable root, the working folder or `/` cannot be honoured while
 * running anything there: it is a problem, and the command does not run. Paths the sandbox does not
 * show anyway (its own /tmp, /proc, /dev) and paths inside a hidden folder are left out.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/paths.js';
import type { DenyTargets, MissingPath } from './deny-paths.js';
import { isLeased } from './mount-points.js';
import type { Protection } from './protect.js';

export interface FsPlan {
  writable: string[];
  readOnly: string[];
  hideDirs: string[];
  hideFiles: string[];
  mountPoints: string[];
  visible: string[];
  problems: string[];
}

export interface FsPlanInput {
  roots: readonly string[];
  cwd: string;
  deny: DenyTargets;
  protection: Protection;
  /** Existing folders a program needs to start, shown read-only wherever they are. */
  visible?: readonly string[];
}

/** What the sandbox never shows from the host: its /tmp is its own, /proc and /dev are made anew. */
const NOT_SHOWN = ['/tmp', '/proc', '/dev'];

export function planFilesystem(i: FsPlanInput): FsPlan {
  const problems = [...i.protection.problems, ...i.deny.problems];
  const inRoot = (p: string) => i.roots.some((r) => isInside(p, r));
  const visible = unique(i.visible ?? []).filter((v) => !inRoot(v) && NOT_SHOWN.some((d) => isInside(v, d)));
  const shown = (p: string) => inRoot(p) || visible.some((v) => isInside(p, v)) || !NOT_SHOWN.some((d) => isInside(p, d));
  const hideDirs: string[] = [];
  const hideFiles: string[] = [];
  for (const t of i.deny.read) {
    if (!shown(t.path)) continue;
    const covered = [...i.roots, i.cwd].find((r) => isInside(r, t.path));
    if (t.path === '/' || covered) {
      problems.push(`${t.rule} hides ${t.path}, which holds ${covered ?? 'everything'}; nothing can run in the sandbox there (narrow the rule)`);
      continue;
    }
    (isDir(t.path) ? hideDirs : hideFiles).push(t.path);
  }
  const hidden = (p: string) => hideDirs.some((d) => isInside(p, d)) || hideFiles.includes(p);
  const readOnly = unique([...i.deny.write.map((t) => t.path), ...i.protection.readOnly]).filter((p) => inRoot(p) && !hidden(p));
  const missing: MissingPath[] = [...i.protection.missing, ...i.deny.writeMissing.filter((m) => inRoot(m.path))];
  // A mount point another sandbox is using looks like an empty folder or file: mask it again, and lease it.
  for (const p of readOnly.filter((x) => isLeased(x))) missing.push({ path: p, kind: isDir(p) ? 'dir' : 'file' });
  const keptReadOnly = collapse(readOnly.filter((p) => !isLeased(p)));
  const underReadOnly = (p: string) => keptReadOnly.some((r) => r !== p && isInside(p, r));
  const mountPoints: string[] = [];
  for (const m of uniqueBy(missing)) {
    if (hidden(m.path) || underReadOnly(m.path)) continue;
    (m.kind === 'dir' ? hideDirs : hideFiles).push(m.path);
    mountPoints.push(m.path);
  }
  const pins = [...keptReadOnly, ...mountPoints].flatMap((p) => between(i.roots, p)).filter((p) => !hidden(p) && !underReadOnly(p));
  const writable = unique([...i.roots, ...pins]);
  return {
    writable,
    readOnly: keptReadOnly,
    hideDirs: collapse(hideDirs),
    hideFiles: unique(hideFiles).filter((f) => !hideDirs.some((d) => isInside(f, d))),
    mountPoints,
    visible: collapse(visible),
    problems,
  };
}

/**
 * The folders strictly between the innermost root holding `p` and `p`: bound onto themselves, so a
 * command cannot rename one away (taking the protected path with it) and make it anew.
 */
function between(roots: readonly string[], p: string): string[] {
  const root = roots.filter((r) => isInside(p, r)).sort((a, b) => b.length - a.length)[0];
  const out: string[] = [];
  if (!root) return out;
  for (let d = path.dirname(p); d !== root && isInside(d, root); d = path.dirname(d)) out.push(d);
  return out;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs.map((x) => path.resolve(x)))];
}

function uniqueBy(xs: readonly MissingPath[]): MissingPath[] {
  const seen = new Map<string, MissingPath>();
  for (const x of xs) if (!seen.has(x.path)) seen.set(x.path, x);
  return [...seen.values()];
}

/** Folders, without those inside another of them. */
function collapse(dirs: readonly string[]): string[] {
  const all = unique(dirs);
  return all.filter((d) => !all.some((o) => o !== d && isInside(d, o)));
}
