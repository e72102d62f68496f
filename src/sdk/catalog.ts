/**
 * What the session offers, in the shapes the Agent SDK reads (SlashCommand, AgentInfo, ModelInfo):
 * for the initialize answer, system/init, and the reload requests.
 */
import { loadCustomCommands } from '../commands/custom-commands.js';
import { loadSkills } from '../commands/skills.js';
import { loadAgentDefinitions } from '../tools/agent/definitions.js';
import { loadOutputStyles } from '../settings/output-styles.js';
import { DEFAULT_MODEL, EFFORT_LEVELS, modelTakesEffort, resolveModel } from '../base/models.js';

export interface CatalogPlace {
  cwd: string;
  configDir: string;
  /** --disable-slash-commands: no custom commands or skills. */
  noCommands?: boolean;
}

export interface SlashCommandInfo {
  name: string;
  description: string;
  argumentHint: string;
}

/** The custom commands and the skills a person may type (`/name`). */
export function slashCommands(p: CatalogPlace): SlashCommandInfo[] {
  if (p.noCommands) return [];
  const seen = new Set<string>();
  const out: SlashCommandInfo[] = [];
  const skills = loadSkills(p.cwd, p.configDir).filter((s) => s.userInvocable !== false);
  for (const c of [...loadCustomCommands(p.cwd, p.configDir), ...skills]) {
    if (seen.has(c.name)) continue;
    seen.add(c.name);
    out.push({ name: c.name, description: c.description, argumentHint: c.argumentHint ?? '' });
  }
  return out;
}

/** The skills the model may run. */
export function skillNames(p: CatalogPlace): string[] {
  if (p.noCommands) return [];
  return loadSkills(p.cwd, p.configDir)
    .filter((s) => s.modelInvocable !== false)
    .map((s) => s.name);
}

export function agentInfos(p: CatalogPlace): Array<{ name: string; description: string; model?: string }> {
  return loadAgentDefinitions(p.cwd, p.configDir).map((a) => ({ name: a.name, description: a.description, ...(a.model ? { model: a.model } : {}) }));
}

export function outputStyleNames(p: CatalogPlace): string[] {
  return loadOutputStyles(p.cwd, p.configDir).map((s) => s.name);
}

/** The models a person may pick by name: the default and the aliases. */
export function modelInfos(): Array<Record<string, unknown>> {
  const entry = (value: string, displayName: string, description: string) => {
    const resolved = value === 'default' ? DEFAULT_MODEL : (resolveModel(value) ?? value);
    const effort = modelTakesEffort(resolved);
    return {
      value,
      resolvedModel: resolved,
      displayName,
      description,
      supportsEffort: effort,
      ...(effort ? { supportedEffortLevels: [...EFFORT_LEVELS] } : {}),
      supportsAdaptiveThinking: false,
      supportsFastMode: false,
      supportsAutoMode: false,
    };
  };
  return [
    entry('default', 'Default (recommended)', `wicket's default model (${DEFAULT_MODEL})`),
    entry('sonnet', 'Sonnet', `${resolveModel('sonnet')}`),
    entry('opus', 'Opus', `${resolveModel('opus')}`),
    entry('haiku', 'Haiku', `${resolveModel('haiku')}`),
  ];
}
