/**
 * Shape checks for one settings file (corpus/malformed.tsv kinds type-error, misplaced-key,
 * unknown-key). Keys wicket does not know are kept untouched; a known key with the wrong JSON type is
 * dropped from what is merged (so no later reader meets an object where it expects a string); keys
 * that belong to another place or another program get a hint. Each problem is one warning. The keys
 * that carry rules or guards are checked first, by guards.ts: a wrong type there is an error that
 * keeps the whole file out (and stops the session), never a warning.
 */
import { typeName } from './hooks.js';
import { ALL_CLAUDE_HOOK_EVENTS } from '../base/hook-config.js';

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string|array' | 'string|object';

/** Known keys whose type we check (reference/claude-code.md §1.3). Other keys pass through. */
const KEY_TYPES: Record<string, JsonType> = {
  permissions: 'object',
  hooks: 'object',
  env: 'object',
  model: 'string',
  fallbackModel: 'string',
  availableModels: 'array',
  effortLevel: 'string',
  outputStyle: 'string',
  apiKeyHelper: 'string',
  awsAuthRefresh: 'string',
  awsCredentialExport: 'string',
  cleanupPeriodDays: 'number',
  includeCoAuthoredBy: 'boolean',
  attribution: 'object',
  disableAllHooks: 'boolean',
  allowManagedHooksOnly: 'boolean',
  allowManagedPermissionRulesOnly: 'boolean',
  statusLine: 'object',
  sandbox: 'object',
  enableAllProjectMcpServers: 'boolean',
  enabledMcpjsonServers: 'array',
  disabledMcpjsonServers: 'array',
  allowedMcpServers: 'array',
  deniedMcpServers: 'array',
  respectGitignore: 'boolean',
  alwaysThinkingEnabled: 'boolean',
  autoCompactEnabled: 'boolean',
  autoCompactWindow: 'number',
  autoMemoryEnabled: 'boolean',
  plansDirectory: 'string',
  theme: 'string',
  editorMode: 'string',
  preferredNotifChannel: 'string',
  verbose: 'boolean',
  enabledPlugins: 'object',
  extraKnownMarketplaces: 'object',
  language: 'string',
  spinnerTipsEnabled: 'boolean',
  showTurnDuration: 'boolean',
  forceLoginMethod: 'string',
  fileCheckpointingEnabled: 'boolean',
};

const PERMISSION_KEYS: Record<string, JsonType> = {
  allow: 'array',
  ask: 'array',
  deny: 'array',
  defaultMode: 'string',
  additionalDirectories: 'array',
  disableBypassPermissionsMode: 'string',
  disableAutoMode: 'string',
};

/** Keys from other formats seen in real files, with where the setting really goes. */
const FOREIGN_KEYS: Record<string, string> = {
  mcpServers: 'MCP servers are configured in .mcp.json or ~/.claude.json, not in settings files',
  systemPrompt: 'not a Claude Code settings key (use CLAUDE.md, outputStyle or --append-system-prompt)',
  agents: 'subagent definitions belong in .claude/agents/*.md or the --agents flag',
  context: 'not a Claude Code settings key (context files go in CLAUDE.md / @imports)',
  instructions: 'not a Claude Code settings key (instructions go in CLAUDE.md)',
  trustedDirectories: 'not a Claude Code settings key (use permissions.additionalDirectories)',
  toolPermissions: 'not a Claude Code settings key (use permissions.allow / permissions.deny)',
  tool_config: 'not a Claude Code settings key (hooks belong under "hooks")',
  autoCompactThreshold: 'not a Claude Code settings key (autoCompactWindow / autoCompactEnabled exist)',
  search: 'not a Claude Code settings key',
  performance: 'not a Claude Code settings key',
};

/** Permission keys written at the top level by mistake. */
const PERMISSION_LEVEL_KEYS = ['defaultMode', 'disableBypassPermissionsMode', 'additionalDirectories', 'allow', 'ask', 'deny'];

export interface CheckedSettings {
  clean: Record<string, unknown>;
  warnings: string[];
}

export function checkSettings(data: Record<string, unknown>, label: string): CheckedSettings {
  const clean: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const problem = topLevelProblem(key, value);
    if (problem) warnings.push(`${label}: ${problem}`);
    const expected = KEY_TYPES[key];
    if (expected && !hasType(value, expected)) {
      warnings.push(`${label}: "${key}" must be ${article(expected)}, found ${typeName(value)}; ignored`);
      continue;
    }
    clean[key] = value;
  }
  if (isObject(clean.permissions)) clean.permissions = checkPermissions(clean.permissions, label, warnings);
  if (isObject(clean.env)) clean.env = checkEnv(clean.env, label, warnings);
  return { clean, warnings };
}

function topLevelProblem(key: string, value: unknown): string | undefined {
  if (FOREIGN_KEYS[key]) return `top-level key "${key}": ${FOREIGN_KEYS[key]}; ignored`;
  if (PERMISSION_LEVEL_KEYS.includes(key)) return `"${key}" at top level belongs under "permissions"; ignored here`;
  if (ALL_CLAUDE_HOOK_EVENTS.includes(key)) return `hook event "${key}" at top level belongs under "hooks"; ignored here`;
  if (/^[A-Z][A-Z0-9_]*$/.test(key) && key.length > 1) {
    return `environment-variable-like key "${key}" at top level (belongs under "env")${value === null ? '' : '; ignored here'}`;
  }
  return undefined;
}

function checkPermissions(perms: Record<string, unknown>, label: string, warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(perms)) {
    const expected = PERMISSION_KEYS[key];
    if (!expected) {
      warnings.push(`${label}: permissions.${key} is not a known permissions key; ignored`);
      out[key] = value;
      continue;
    }
    if (!hasType(value, expected)) {
      warnings.push(`${label}: permissions.${key} must be ${article(expected)}, found ${typeName(value)}; ignored`);
      continue;
    }
    if (key === 'additionalDirectories') {
      const dirs = (value as unknown[]).filter((d): d is string => typeof d === 'string' && d.trim() !== '');
      if (dirs.length !== (value as unknown[]).length)
        warnings.push(`${label}: permissions.additionalDirectories holds entries that are not paths; those are ignored`);
      out[key] = dirs;
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** Numbers and booleans in `env` are turned into strings (what a shell would see); anything else is dropped. */
function checkEnv(env: Record<string, unknown>, label: string, warnings: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const coerced: string[] = [];
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') {
      out[name] = String(value);
      coerced.push(name);
    } else dropped.push(name);
  }
  if (coerced.length) warnings.push(`${label}: env has ${coerced.length} non-string value(s) (${coerced.join(', ')}); used as strings`);
  if (dropped.length) warnings.push(`${label}: env value(s) for ${dropped.join(', ')} are not strings, numbers or booleans; ignored`);
  return out;
}

function hasType(value: unknown, expected: JsonType): boolean {
  return expected.split('|').some((t) => {
    if (t === 'array') return Array.isArray(value);
    if (t === 'object') return isObject(value);
    if (t === 'number') return typeof value === 'number' && Number.isFinite(value);
    return typeof value === t;
  });
}

function article(t: JsonType): string {
  return t
    .split('|')
    .map((x) => (x === 'array' || x === 'object' ? `an ${x}` : `a ${x}`))
    .join(' or ');
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
