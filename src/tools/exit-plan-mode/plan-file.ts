/**
 * Where an approved plan is kept, as Claude Code keeps plan files: settings `plansDirectory`
 * (relative to the project root; `~/` is the home folder), else `~/.claude/plans` (CLAUDE_CONFIG_DIR
 * moves it). One Markdown file per plan, named after the session and the plan's first line.
 */
import path from 'node:path';
import { writeAtomic } from '../../base/fs/atomic-write.js';
import { userConfigDir } from '../../settings/paths.js';

export interface PlanPlace {
  projectRoot: string;
  homeDir: string;
  sessionId: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
}

export function plansDirectory(p: PlanPlace): string {
  const set = typeof p.settings.plansDirectory === 'string' ? p.settings.plansDirectory.trim() : '';
  if (!set) return path.join(userConfigDir(p.homeDir, p.env.CLAUDE_CONFIG_DIR || undefined), 'plans');
  if (set === '~' || set.startsWith('~/')) return path.join(p.homeDir, set.slice(1));
  return path.resolve(p.projectRoot, set);
}

/** Writes the plan and returns its path. */
export async function savePlan(plan: string, p: PlanPlace): Promise<string> {
  const title = plan.split('\n').find((l) => l.trim() !== '') ?? 'plan';
  const slug =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'plan';
  const file = path.join(plansDirectory(p), `${p.sessionId.slice(0, 8)}-${slug}.md`);
  await writeAtomic(file, Buffer.from(plan.endsWith('\n') ? plan : `${plan}\n`), { createParents: true });
  return file;
}
