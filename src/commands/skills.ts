/**
 * Skills, as Claude Code reads them: `.claude/skills/<name>/SKILL.md` in the project and
 * `<config dir>/skills/<name>/SKILL.md` (a personal skill beats a project one of the same name).
 * Frontmatter: `name` (default: the folder's), `description`, `when_to_use`, `argument-hint`,
 * `allowed-tools`, `disable-model-invocation` (the Skill tool does not offer it),
 * `user-invocable: false` (no slash command). The body is expanded as a custom command's is, with
 * `${CLAUDE_SKILL_DIR}` its folder. Plugins add theirs as `plugin:name` (plugins/commands.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { splitRuleList } from '../base/rule-parse.js';
import { inSafeMode } from '../settings/safe-mode.js';
import type { CustomCommand } from './types.js';
import { parseFrontmatter } from '../settings/frontmatter.js';

/** The plugins' skills (plugins/commands.ts); plugins/active.ts sets them when a session's plugins load. */
let pluginSkills: () => CustomCommand[] = () => [];

export function setPluginSkills(skills: () => CustomCommand[]): void {
  pluginSkills = skills;
}

export function loadSkills(projectRoot: string, configDir: string | undefined): CustomCommand[] {
  if (inSafeMode()) return [];
  const user = configDir ? scanSkillDir(path.join(configDir, 'skills'), 'user') : [];
  const names = new Set(user.map((s) => s.name));
  return [...user, ...scanSkillDir(path.join(projectRoot, '.claude', 'skills'), 'project').filter((s) => !names.has(s.name)), ...pluginSkills()];
}

/** The skills in a folder of skill folders. */
export function scanSkillDir(root: string, source: CustomCommand['source']): CustomCommand[] {
  let dirs: string[];
  try {
    dirs = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  const out: CustomCommand[] = [];
  for (const dir of dirs) {
    const skill = skillFromDir(path.join(root, dir), dir, source);
    if (skill) out.push(skill);
  }
  return out;
}

/** The skill in `dir` (its SKILL.md); undefined when there is none or its name is not usable. */
export function skillFromDir(dir: string, folder: string, source: CustomCommand['source']): CustomCommand | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
  } catch {
    return undefined;
  }
  const { meta, body } = parseFrontmatter(text);
  const name = meta.name?.trim() || folder;
  if (!/^[A-Za-z0-9_:.-]+$/.test(name)) return undefined;
  const firstLine = body.trim().split('\n')[0] ?? '';
  return {
    name,
    description: meta.description || (firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine),
    ...(meta.when_to_use ? { whenToUse: meta.when_to_use } : {}),
    ...(meta['argument-hint'] ? { argumentHint: meta['argument-hint'] } : {}),
    source,
    allowedTools: splitRuleList([meta['allowed-tools'] ?? '']),
    body,
    skillDir: dir,
    modelInvocable: meta['disable-model-invocation'] !== 'true',
    userInvocable: meta['user-invocable'] !== 'false',
  };
}
