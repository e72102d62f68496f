/**
 * Where a session keeps its plan in plan mode, as Claude Code 2.1 keeps it: one Markdown file per
 * session, named by three words (`~/.claude/plans/<adjective>-<verb>-<noun>.md`), or under the
 * `plansDirectory` setting (relative to the project, and inside it: one that leads out of the
 * project is not used, and the default folder is). The words come from the session's id, so a
 * resumed session finds its plan again.
 */
import path from 'node:path';
import { userConfigDir } from './paths.js';

const ADJECTIVES = [
  'bright',
  'calm',
  'clever',
  'curious',
  'eager',
  'gentle',
  'golden',
  'humble',
  'jolly',
  'lively',
  'lucky',
  'mellow',
  'nimble',
  'quiet',
  'rapid',
  'shiny',
  'silver',
  'steady',
  'sunny',
  'swift',
  'tidy',
  'vivid',
  'warm',
  'witty',
];
const VERBS = [
  'baking',
  'building',
  'carving',
  'chasing',
  'dancing',
  'drawing',
  'folding',
  'gliding',
  'growing',
  'humming',
  'jumping',
  'knitting',
  'mixing',
  'painting',
  'planting',
  'rolling',
  'sailing',
  'singing',
  'sorting',
  'spinning',
  'stacking',
  'tracing',
  'weaving',
  'writing',
];
const NOUNS = [
  'anchor',
  'beacon',
  'bridge',
  'canyon',
  'comet',
  'compass',
  'falcon',
  'forest',
  'fountain',
  'garden',
  'harbor',
  'island',
  'lantern',
  'meadow',
  'orchard',
  'pebble',
  'planet',
  'river',
  'summit',
  'teapot',
  'thistle',
  'valley',
  'willow',
  'zephyr',
];

/** Three words for a session: the same id gives the same words. */
export function planSlug(sessionId: string): string {
  const h = process.getBuiltinModule('node:crypto').createHash('sha256').update(sessionId).digest();
  return `${ADJECTIVES[h[0]! % ADJECTIVES.length]}-${VERBS[h[1]! % VERBS.length]}-${NOUNS[h[2]! % NOUNS.length]}`;
}

export interface PlanFileWhere {
  sessionId: string;
  projectRoot: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
}

/** The folder plans go in; `problem` says why `plansDirectory` was not used. */
export function plansDirectory(w: Omit<PlanFileWhere, 'sessionId'>): { dir: string; problem?: string } {
  const fallback = path.join(userConfigDir(w.homeDir, w.env.CLAUDE_CONFIG_DIR || undefined), 'plans');
  const set = w.settings.plansDirectory;
  if (set === undefined) return { dir: fallback };
  if (typeof set !== 'string' || !set.trim()) return { dir: fallback, problem: 'plansDirectory must be a folder name' };
  const root = path.resolve(w.projectRoot);
  const dir = path.resolve(root, set);
  const rel = path.relative(root, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel) || set.includes('\\'))
    return { dir: fallback, problem: `plansDirectory must be inside the project (${root}), with no backslash: ${set}` };
  return { dir };
}

export function planFilePath(w: PlanFileWhere): string {
  return path.join(plansDirectory(w).dir, `${planSlug(w.sessionId)}.md`);
}

/** The plan file of the session a tool call belongs to. */
export function sessionPlanFile(ctx: {
  sessionId: string;
  projectRoot: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
}): string {
  return planFilePath({ sessionId: ctx.sessionId, projectRoot: ctx.projectRoot, homeDir: ctx.homeDir, env: ctx.env, settings: ctx.settings });
}
