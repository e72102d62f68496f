/**
 * Shape checks for one settings file (corpus/malformed.tsv kinds type-error, misplaced-key,
 * unknown-key). Every value is checked against Claude Code's published schema (schema.ts): a key of
 * the wrong JSON type is dropped from what is merged (so no later reader meets an object where it
 * expects a string), and every other mismatch is a warning with its JSON path. Keys the schema does
 * not know are kept untouched, with a warning; keys that belong to another place or another program
 * get a hint. The keys that carry rules or guards are checked first, by guards.ts: a wrong type
 * there is an error that keeps the whole file out (and stops the session), never a warning.
 */
import { ALL_CLAUDE_HOOK_EVENTS } from '../base/hook-config.js';
import { knownSettingsKeys, schemaFindings } from './schema.js';

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
  const warnings: string[] = [];
  const known = knownSettingsKeys();
  for (const [key, value] of Object.entries(data)) {
    const problem = topLevelProblem(key, value);
    if (problem) warnings.push(`${label}: ${problem}`);
    else if (!known.has(key)) warnings.push(`${label}: unknown key "${key}" (not a Claude Code setting); ignored`);
  }
  const clean: Record<string, unknown> = { ...data };
  if (isObject(clean.permissions)) clean.permissions = { ...clean.permissions };
  for (const finding of schemaFindings(data)) {
    warnings.push(`${label}: ${finding.message}${finding.drop ? '; ignored' : ''}`);
    if (!finding.drop) continue;
    const [top, sub] = finding.path;
    if (sub === undefined) delete clean[top as string];
    else delete (clean[top as string] as Record<string, unknown>)[sub as string];
  }
  if (isObject(clean.permissions)) clean.permissions = checkDirectories(clean.permissions, label, warnings);
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

/** `permissions.additionalDirectories` keeps only the entries that are paths. */
function checkDirectories(perms: Record<string, unknown>, label: string, warnings: string[]): Record<string, unknown> {
  const list = perms.additionalDirectories;
  if (!Array.isArray(list)) return perms;
  const dirs = list.filter((d): d is string => typeof d === 'string' && d.trim() !== '');
  if (dirs.length !== list.length) warnings.push(`${label}: permissions.additionalDirectories holds entries that are not paths; those are ignored`);
  return { ...perms, additionalDirectories: dirs };
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

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
