/**
 * `--agent <name>`: the session runs as that agent. Its prompt replaces wicket's, its tools and model
 * apply, its hooks run beside the settings' ones (`Stop` stays Stop: the session is the agent), its
 * inline MCP servers start with the session's (mcp-setup.ts), its memory folder is in its prompt,
 * its skills come before the first prompt, and its `initialPrompt` is the first user turn.
 */
import type { RunInlineBash } from '../../commands/custom-commands.js';
import type { ParsedRule } from '../../base/rule-parse.js';
import type { LoadedSettings } from '../../settings/load.js';
import { subagentTools } from '../subagent.js';
import { loadAgentDefinitions, type AgentDefinition } from '../../tools/agent/definitions.js';
import { agentMemoryDir, ensureMemoryDir, MEMORY_TOOLS, memoryPrompt, memoryRules } from '../../tools/agent/memory.js';
import { preloadSkills } from '../../tools/agent/preload.js';
import type { Tool } from '../../base/tool.js';

/** The definition the session runs as (files, --agents or a built-in). */
export function mainAgent(name: string, cwd: string, configDir: string): AgentDefinition {
  const defs = loadAgentDefinitions(cwd, configDir);
  const def = defs.find((d) => d.name === name);
  if (!def) throw new Error(`--agent: there is no agent named ${name}; known: ${defs.map((d) => d.name).join(', ')}`);
  return def;
}

/** Its tools of the session's: its list (with the memory tools when it has memory), less the disallowed; Agent when it names it. */
export function mainAgentTools(tools: readonly Tool[], def: AgentDefinition): Tool[] {
  const keepAgent = !def.tools || def.tools.includes('Agent') || def.tools.includes('Task');
  const toolNames = def.tools && def.memory ? [...def.tools, ...MEMORY_TOOLS] : def.tools;
  return [...subagentTools(tools, { toolNames, disallowedTools: def.disallowedTools }), ...(keepAgent ? tools.filter((t) => t.name === 'Agent') : [])];
}

/** Its hooks join the settings' ones, unless the settings turn hooks off. */
export function addMainAgentHooks(loaded: LoadedSettings, def: AgentDefinition): void {
  if (!def.hooks?.length) return;
  if (loaded.hookPolicy) loaded.warnings.push(`agent ${def.name}: its hooks do not run (${loaded.hookPolicy})`);
  else loaded.hooks.push(...def.hooks);
}

/** Its memory folder (made now): the prompt section about it and the rules that open it. */
export function mainAgentMemory(
  def: AgentDefinition,
  roots: { projectDir: string; configDir: string; env: Record<string, string | undefined> },
  warnings: string[],
): { prompt?: string; rules: ParsedRule[] } {
  if (!def.memory) return { rules: [] };
  const dir = agentMemoryDir(def.memory, def.name, roots);
  const why = ensureMemoryDir(dir);
  if (why) warnings.push(`agent ${def.name}: ${why}`);
  return { prompt: memoryPrompt(dir, def.memory), rules: memoryRules(dir) };
}

/** The first user turn: its `initialPrompt`, then the prompt given (Claude Code puts the two together). */
export function withInitialPrompt(def: AgentDefinition | undefined, prompt: string | undefined): string | undefined {
  const initial = def?.initialPrompt;
  if (!initial) return prompt;
  return prompt ? `${initial}\n\n${prompt}` : initial;
}

/** Its skills' text, for the start of a new conversation; warnings for those it cannot have. */
export async function mainAgentSkills(
  def: AgentDefinition | undefined,
  roots: { projectRoot: string; configDir: string; sessionId: string },
  run: RunInlineBash,
): Promise<{ text?: string; warnings: string[] }> {
  if (!def?.skills?.length) return { warnings: [] };
  const { texts, warnings } = await preloadSkills(def.name, def.skills, roots, run);
  return texts.length ? { text: texts.join('\n\n'), warnings } : { warnings };
}
