/**
 * Frontmatter `skills`: the named skills' text, given to the agent when it starts (before its
 * task), as the Skill tool would give it; inline shell in them runs through the gates. A skill
 * that is not there, or that the model may not run (`disable-model-invocation`), is skipped with a
 * warning.
 */
import type { RunInlineBash } from '../../commands/custom-commands.js';
import { loadSkills } from '../../commands/skills.js';
import { renderSkill, skillTextForModel } from '../skill/index.js';

export interface PreloadRoots {
  projectRoot: string;
  configDir: string | undefined;
  sessionId: string;
}

export async function preloadSkills(
  agent: string,
  names: readonly string[],
  roots: PreloadRoots,
  run?: RunInlineBash,
): Promise<{ texts: string[]; warnings: string[] }> {
  const texts: string[] = [];
  const warnings: string[] = [];
  if (!names.length) return { texts, warnings };
  const all = loadSkills(roots.projectRoot, roots.configDir);
  for (const name of names) {
    // A plugin's skill may be named with or without its plugin's prefix.
    const skill = all.find((s) => s.name === name) ?? all.find((s) => s.name.endsWith(`:${name}`));
    if (!skill) {
      warnings.push(
        `agent ${agent}: there is no skill "${name}" to preload${all.length ? ` (skills: ${all.map((s) => s.name).join(', ')})` : ''}; it starts without it`,
      );
      continue;
    }
    if (skill.modelInvocable === false) {
      warnings.push(`agent ${agent}: the skill "${name}" sets disable-model-invocation, so it cannot be preloaded; it starts without it`);
      continue;
    }
    const out = await renderSkill(skill, '', { projectDir: roots.projectRoot, sessionId: roots.sessionId }, run);
    texts.push(`<skill name="${skill.name}">\nThis skill is loaded for you: follow it where it applies.\n${skillTextForModel(out)}\n</skill>`);
  }
  return { texts, warnings };
}
