/**
 * Sub-agent types: the built-in ones (general-purpose, Explore, Plan) and those a team defines as
 * Markdown with frontmatter in `.claude/agents/*.md` (the working directory and its parents; the
 * nearest wins) or `~/.claude/agents/*.md`. A project agent beats a user one of the same name; a
 * file may replace a built-in. Frontmatter: `name`, `description` (both required) and the optional
 * fields of frontmatter.ts; the body is the agent's system prompt.
 */
import path from 'node:path';
import { markdownFiles } from '../../settings/markdown-dir.js';
import { parseYamlBlock } from '../../settings/frontmatter-yaml.js';
import { inSafeMode } from '../../settings/safe-mode.js';
import { readAgentFields, type AgentFields } from './frontmatter.js';

export interface AgentDefinition extends AgentFields {
  name: string;
  description: string;
  systemPrompt: string;
  source: 'builtin' | 'project' | 'user' | 'cli' | 'plugin';
  file?: string;
  /** What could not be used in its definition (each names the file and field). */
  warnings?: string[];
}

const READ_ONLY_TOOLS = ['Read', 'Glob', 'Grep', 'WebFetch', 'Bash', 'TaskOutput'];

export const BUILTIN_AGENTS: AgentDefinition[] = [
  {
    name: 'general-purpose',
    description: 'For research and multi-step tasks: searching code, reading files, and making changes when asked. Has every tool.',
    disallowedTools: [],
    systemPrompt:
      'You are a sub-agent working on one task for the main agent, who sees only your final message. Use the tools to do the task fully, then end with a concise report of what you found or did: the facts, file paths and names the main agent needs. Do not ask questions; if something is unclear, say what you assumed.',
    source: 'builtin',
  },
  {
    name: 'Explore',
    description: 'Fast, read-only exploration of a codebase: finding files, searching code, answering questions about how things work. Say how thorough to be.',
    tools: READ_ONLY_TOOLS,
    disallowedTools: [],
    systemPrompt:
      'You are a read-only search sub-agent. Find what the main agent asked for with Glob, Grep and Read (and read-only shell commands), and answer with the facts: file paths, line numbers, names and short excerpts. Do not change anything.',
    source: 'builtin',
  },
  {
    name: 'Plan',
    description: 'Read-only research for planning a change: what exists, what would have to change, and the risks.',
    tools: READ_ONLY_TOOLS,
    disallowedTools: [],
    systemPrompt:
      'You are a read-only planning sub-agent. Study the code the task concerns and answer with a plan: the files and functions involved, the changes needed, in order, and the risks. Do not change anything.',
    source: 'builtin',
  },
];

const loaded = new Map<string, AgentDefinition[]>();
/** Agents given with --agents: above every file. */
let cliAgents: AgentDefinition[] = [];

/** The plugins' agents (plugins/agents.ts); plugins/active.ts sets them when a session's plugins load. */
let pluginAgentDefinitions: () => AgentDefinition[] = () => [];

export function setPluginAgents(agents: () => AgentDefinition[]): void {
  pluginAgentDefinitions = agents;
  // Plugins reloaded (/reload-plugins): the agent types are read again.
  loaded.clear();
}

/**
 * `--agents '{"name": {"description": …, "prompt": …, "tools": […], "model": …}}'`, as Claude Code
 * takes it. Throws with one sentence when the JSON or an entry is not usable.
 */
export function setCliAgents(json: string | undefined): void {
  cliAgents = json ? parseCliAgents(json) : [];
  loaded.clear();
}

export function parseCliAgents(json: string): AgentDefinition[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new Error(`--agents is not valid JSON: ${(err as Error).message}`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new Error('--agents must be a JSON object: {"name": {"description": "…", "prompt": "…"}}');
  return Object.entries(data as Record<string, any>).map(([name, d]) => {
    if (!d || typeof d !== 'object' || typeof d.description !== 'string' || typeof d.prompt !== 'string') {
      throw new Error(`--agents: "${name}" needs a "description" and a "prompt" (strings)`);
    }
    const { fields, warnings } = readAgentFields(d, { label: `--agents "${name}"`, source: 'cli', agent: name });
    return { name, description: d.description, ...fields, systemPrompt: d.prompt, source: 'cli' as const, ...(warnings.length ? { warnings } : {}) };
  });
}

/**
 * Every agent type available from `cwd`, built-ins first, then files (project over user over
 * built-in). Read once per process and folder, as the tool list the model sees must not change
 * under it mid-session.
 */
export function loadAgentDefinitions(cwd: string, configDir: string | undefined): AgentDefinition[] {
  const key = `${cwd}\0${configDir ?? ''}`;
  let defs = loaded.get(key);
  if (!defs) loaded.set(key, (defs = readAgentDefinitions(cwd, configDir)));
  return defs;
}

function readAgentDefinitions(cwd: string, configDir: string | undefined): AgentDefinition[] {
  const byName = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((a) => [a.name, a]));
  for (const a of pluginAgentDefinitions()) byName.set(a.name, a);
  if (!inSafeMode()) for (const a of fileAgentDefinitions(cwd, configDir)) byName.set(a.name, a);
  for (const a of cliAgents) byName.set(a.name, a);
  return [...byName.values()];
}

/** The agent files' definitions: the user's, then each folder's from the root down to `cwd`. */
function fileAgentDefinitions(cwd: string, configDir: string | undefined): AgentDefinition[] {
  const defs = configDir ? scanDir(path.join(configDir, 'agents'), 'user') : [];
  const dirs: string[] = [];
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    dirs.push(path.join(d, '.claude', 'agents'));
    if (path.dirname(d) === d) break;
  }
  for (const dir of dirs.reverse()) defs.push(...scanDir(dir, 'project'));
  return defs;
}

function scanDir(dir: string, source: 'project' | 'user'): AgentDefinition[] {
  return markdownFiles(dir).flatMap(({ file, text }) => parseAgentFile(text, source, file) ?? []);
}

/** One agent file; undefined without the required name and description. */
export function parseAgentFile(text: string, source: 'project' | 'user', file?: string): AgentDefinition | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text.replace(/^\uFEFF/, ''));
  if (!m) return undefined;
  const { data, problems } = parseYamlBlock(m[1]!);
  const name = scalar(data.name);
  const description = scalar(data.description);
  if (!name || !description) return undefined;
  const label = file ?? `agent "${name}"`;
  const { fields, warnings } = readAgentFields(data, { label, source, agent: name, ...(file ? { file } : {}) });
  warnings.unshift(...problems.map((p) => `${label}: frontmatter ${p}`));
  return {
    name,
    description,
    ...fields,
    systemPrompt: text
      .replace(/^\uFEFF/, '')
      .slice(m.index + m[0].length)
      .trim(),
    source,
    ...(file ? { file } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** Every warning of these definitions, for the person. */
export function agentWarnings(defs: readonly AgentDefinition[]): string[] {
  return defs.flatMap((d) => d.warnings ?? []);
}

function scalar(v: unknown): string | undefined {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
  return s || undefined;
}
