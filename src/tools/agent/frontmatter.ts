/**
 * The optional fields of a sub-agent definition, as Claude Code's agent files (frontmatter) and
 * `--agents` JSON write them: `tools`, `disallowedTools`, `model`, `permissionMode`, `maxTurns`,
 * `effort`, `isolation`, `skills`, `mcpServers`, `hooks`, `memory`, `background`, `color`,
 * `initialPrompt`. A value that cannot be used becomes one warning naming the file (or --agents
 * entry) and the field, and the agent loads without it.
 */
import { parseHooksConfig } from '../../settings/hooks.js';
import type { HookGroup } from '../../base/hook-config.js';
import { parseEffort, type Effort } from '../../base/models.js';
import { parsePermissionMode, type PermissionMode } from '../../base/permission-modes.js';
import type { RuleSource } from '../../base/rule-parse.js';
import { splitRuleList } from '../../base/rule-parse.js';

export const AGENT_COLORS = ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'] as const;
export type AgentColor = (typeof AGENT_COLORS)[number];

export const MEMORY_SCOPES = ['user', 'project', 'local'] as const;
export type MemoryScope = (typeof MEMORY_SCOPES)[number];

/** An entry of `mcpServers`: a server of the session by name, or one defined here (connected for the agent's run only). */
export interface AgentMcpServer {
  name: string;
  /** The inline definition, as written (the `.mcp.json` entry format); absent for a reference by name. */
  config?: Record<string, unknown>;
}

export interface AgentFields {
  /** Tool names it may use; undefined: every tool of the session (but Agent). */
  tools?: string[];
  disallowedTools: string[];
  /** `sonnet`, `opus`, `haiku`, a model id, or undefined / `inherit` for the session's model. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** Its effort level; undefined (or `auto`): the session's. */
  effort?: Effort;
  /** `worktree`: each run works in a git worktree of its own. */
  isolation?: string;
  /** Skills whose text it is given when it starts. */
  skills?: string[];
  mcpServers?: AgentMcpServer[];
  /** Hooks (settings format) that apply only while it runs; `Stop` there acts as SubagentStop. */
  hooks?: HookGroup[];
  /** Its persistent memory folder's scope. */
  memory?: MemoryScope;
  /** Always runs as a background task. */
  background?: boolean;
  /** Its color in the app. */
  color?: AgentColor;
  /** With `--agent`: the first user turn (before the prompt given, if any). */
  initialPrompt?: string;
}

export interface FieldOrigin {
  /** Where the definition comes from, for warnings: a file path, or `--agents "name"`. */
  label: string;
  /** Its source, for its hooks: project files, user files, or the command line. */
  source: 'project' | 'user' | 'cli';
  file?: string;
  /** The agent's name, for its hooks' labels. */
  agent: string;
}

const HOOK_SOURCE: Record<FieldOrigin['source'], RuleSource> = { project: 'projectSettings', user: 'userSettings', cli: 'cli' };

type Reader<T> = (v: unknown, fail: (why: string) => undefined) => T | undefined;

export function readAgentFields(meta: Record<string, unknown>, origin: FieldOrigin): { fields: AgentFields; warnings: string[] } {
  const warnings: string[] = [];
  const read = <T>(key: string, reader: Reader<T>): T | undefined => {
    const v = meta[key];
    if (v === undefined || v === null) return undefined;
    return reader(v, (why) => {
      warnings.push(`${origin.label}: "${key}" ${why}; the agent loads without it`);
      return undefined;
    });
  };
  const fields: AgentFields = { disallowedTools: read('disallowedTools', names) ?? [] };
  const set = <K extends keyof AgentFields>(key: K, value: AgentFields[K] | undefined) => {
    if (value !== undefined) fields[key] = value;
  };
  set('tools', read('tools', names));
  const model = read('model', text);
  if (model && model !== 'inherit') fields.model = model;
  set('permissionMode', read('permissionMode', oneOf('a permission mode (default, acceptEdits, plan, dontAsk, bypassPermissions)', parsePermissionMode)));
  set('maxTurns', read('maxTurns', positiveInteger));
  const effort = read('effort', oneOf('an effort level (low, medium, high, xhigh, max or auto)', parseEffort));
  if (effort && effort !== 'auto') fields.effort = effort;
  set('isolation', read('isolation', text));
  set('skills', read('skills', names));
  set('mcpServers', read('mcpServers', mcpServers));
  set(
    'memory',
    read(
      'memory',
      oneOf('user, project or local', (s) => ((MEMORY_SCOPES as readonly string[]).includes(s) ? (s as MemoryScope) : undefined)),
    ),
  );
  set('background', read('background', flag));
  set(
    'color',
    read(
      'color',
      oneOf(AGENT_COLORS.join(', '), (s) => ((AGENT_COLORS as readonly string[]).includes(s.toLowerCase()) ? (s.toLowerCase() as AgentColor) : undefined)),
    ),
  );
  set('initialPrompt', read('initialPrompt', text));
  const hooks = read('hooks', (v, fail) => hookGroups(v, origin, warnings, fail));
  if (hooks?.length) fields.hooks = hooks;
  return { fields, warnings };
}

/** A non-empty string (numbers are taken as written). */
const text: Reader<string> = (v, fail) => {
  const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined;
  return s ? s : fail(`must be text, found ${describe(v)}`);
};

function oneOf<T>(what: string, parse: (s: string) => T | undefined): Reader<T> {
  return (v, fail) => {
    const s = typeof v === 'string' ? v.trim() : undefined;
    const parsed = s ? parse(s) : undefined;
    return parsed !== undefined ? parsed : fail(`must be ${what}, found ${describe(v)}`);
  };
}

const positiveInteger: Reader<number> = (v, fail) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fail(`must be a whole number above 0, found ${describe(v)}`);
};

const flag: Reader<boolean> = (v, fail) => {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return fail(`must be true or false, found ${describe(v)}`);
};

/** `Read, Grep`, `[Read, Grep]` or a list. */
const names: Reader<string[]> = (v, fail) => {
  if (typeof v === 'string')
    return splitRuleList([v.replace(/^\s*\[|\]\s*$/g, '')])
      .map(unquote)
      .filter(Boolean);
  if (!Array.isArray(v)) return fail(`must be a list of names, found ${describe(v)}`);
  const bad = v.filter((x) => typeof x !== 'string');
  if (bad.length) return fail(`must be a list of names; ${describe(bad[0])} is not a name`);
  return (v as string[]).map(unquote).filter(Boolean);
};

/** `- github` (a server of the session) and `- name: {type: …}` (a server of its own); a `{name: config}` object too. */
const mcpServers: Reader<AgentMcpServer[]> = (v, fail) => {
  const items = Array.isArray(v) ? v : isRecord(v) ? Object.entries(v).map(([name, config]) => ({ [name]: config })) : undefined;
  if (!items) return fail(`must be a list of server names or {name: definition} entries, found ${describe(v)}`);
  const out: AgentMcpServer[] = [];
  for (const item of items) {
    if (typeof item === 'string' && item.trim()) out.push({ name: item.trim() });
    else if (isRecord(item) && Object.keys(item).length > 0 && Object.values(item).every(isRecord)) {
      for (const [name, config] of Object.entries(item)) out.push({ name, config: config as Record<string, unknown> });
    } else return fail(`entries must be a server name or {name: definition}, found ${describe(item)}`);
  }
  return out;
};

function hookGroups(v: unknown, origin: FieldOrigin, warnings: string[], fail: (why: string) => undefined): HookGroup[] | undefined {
  if (!isRecord(v)) return fail(`must be a map of hook events (the settings "hooks" format), found ${describe(v)}`);
  const parsed = parseHooksConfig(v, HOOK_SOURCE[origin.source], origin.file, origin.label);
  warnings.push(...parsed.warnings);
  return parsed.groups.map((g) => ({ ...g, agent: origin.agent }));
}

function unquote(s: string): string {
  return s.trim().replace(/^["']|["']$/g, '');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 39)}…` : v);
  if (Array.isArray(v)) return 'a list';
  if (isRecord(v)) return 'a map';
  return String(v);
}
