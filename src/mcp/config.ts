/**
 * Which MCP servers a session may start, from the places Claude Code reads them:
 * - `--mcp-config` (files or JSON text; with `--strict-mcp-config`, nothing else);
 * - `~/.claude.json`: `projects["<cwd>"].mcpServers` (local scope) and `mcpServers` (user scope);
 * - `.mcp.json` in the working directory and its parents (project scope; the nearest file wins).
 * A name defined in several places takes the whole entry from the first of: --mcp-config, local,
 * project, user, plugin (plugins/mcp.ts). `${VAR}` and `${VAR:-default}` are expanded in commands,
 * arguments, env, URLs and headers. Pure reading: nothing starts here, and a bad entry becomes an
 * error on that server only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { globalConfigPath } from '../settings/paths.js';
import { readJsonObjectShared } from '../settings/global-config.js';
import { parseSettingsText } from '../settings/read.js';

/** `sdk`: an Agent SDK host's in-process server (its initialize request names it; never from a file). */
export type McpScope = 'dynamic' | 'local' | 'project' | 'user' | 'plugin' | 'sdk';

export type McpTransportConfig =
  /** `sandbox: false`: runs outside the sandbox when sandbox.enabled is on (mcp/sandbox.ts). */
  | { type: 'stdio'; command: string; args: string[]; env: Record<string, string>; sandbox?: boolean }
  | { type: 'http' | 'sse'; url: string; headers: Record<string, string>; headersHelper?: string; oauth?: McpOAuthConfig }
  /** A WebSocket server (`ws://` or `wss://`), JSON-RPC as text frames; no OAuth. */
  | { type: 'ws'; url: string; headers: Record<string, string>; headersHelper?: string };

/** An entry's `oauth`: a client registered in advance (else dynamic registration), and the callback's port. */
export interface McpOAuthConfig {
  clientId?: string;
  callbackPort?: number;
}

export interface McpServerEntry {
  name: string;
  scope: McpScope;
  /** The file that defines it, or `--mcp-config`. */
  source: string;
  config?: McpTransportConfig;
  /** Why this entry cannot be used: a bad field, a variable that is not set, a transport wicket lacks. */
  error?: string;
  /** Why it is turned off (disabledMcpjsonServers, disabledMcpServers, or the allowedMcpServers / deniedMcpServers policy). */
  offReason?: string;
  /** Turned off by the person (/mcp disable, kept in a list), so /mcp enable may turn it on again; never for a policy's refusal. */
  userOff?: boolean;
  /** `alwaysLoad: true`: its tools are sent with every request instead of waiting behind ToolSearch. */
  alwaysLoad?: boolean;
}

export interface McpConfigInput {
  cwd: string;
  home: string;
  /** CLAUDE_CONFIG_DIR, when set: `.claude.json` is read from there. */
  configDir?: string;
  env: Record<string, string | undefined>;
  /** `--mcp-config` values: file paths or JSON text. */
  cliConfigs: string[];
  strict: boolean;
  /** Merged settings: enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers. */
  settings: Record<string, unknown>;
  /** The session's plugins' servers (plugins/mcp.ts): below every other scope, and left out by --strict-mcp-config. */
  pluginServers?: McpServerEntry[];
}

export interface McpConfig {
  /** Servers to start (project servers the settings turned off are left out). */
  servers: McpServerEntry[];
  /** Project servers not approved in the settings: an interactive session asks before starting them. */
  unapproved: string[];
  /** Project servers turned off by disabledMcpjsonServers (and not defined anywhere else). */
  disabled: McpServerEntry[];
  /** Files that could not be read as JSON objects, each named with the problem. */
  warnings: string[];
}

export class McpConfigError extends Error {}

const SCOPE_ORDER: McpScope[] = ['dynamic', 'local', 'project', 'user', 'plugin'];

export function loadMcpConfig(input: McpConfigInput): McpConfig {
  const found = new Map<McpScope, McpServerEntry[]>();
  const warnings: string[] = [];
  let userOff: string[] = [];
  found.set(
    'dynamic',
    input.cliConfigs.flatMap((c) => fromCliConfig(c, input)),
  );
  if (!input.strict) {
    const global = readGlobalConfig(globalConfigPath(input.home, input.configDir), warnings);
    const projects = isRecord(global?.projects) ? global.projects : {};
    const local = isRecord(projects[input.cwd]) ? projects[input.cwd] : {};
    userOff = stringList(local.disabledMcpServers);
    found.set('local', entriesOf(local.mcpServers, 'local', global?.file ?? '', input.env));
    found.set('project', projectEntries(input, warnings));
    found.set('user', entriesOf(global?.mcpServers, 'user', global?.file ?? '', input.env));
    found.set('plugin', input.pluginServers ?? []);
  }
  // disabledMcpjsonServers turns off the .mcp.json entry only: a server of that name elsewhere still runs.
  const disabledNames = stringList(input.settings.disabledMcpjsonServers);
  const project = found.get('project') ?? [];
  const turnedOff = project.filter((e) => disabledNames.includes(e.name));
  found.set(
    'project',
    project.filter((e) => !disabledNames.includes(e.name)),
  );
  const winners = new Map<string, McpServerEntry>();
  for (const scope of SCOPE_ORDER) for (const e of found.get(scope) ?? []) if (!winners.has(e.name)) winners.set(e.name, e);
  const disabled: McpServerEntry[] = turnedOff
    .filter((e) => !winners.has(e.name))
    .map((e) => ({ ...e, offReason: 'turned off by disabledMcpjsonServers', userOff: true }));
  const servers: McpServerEntry[] = [];
  for (const e of winners.values()) {
    const refused = policyRefusal(e, input.settings);
    if (refused) disabled.push({ ...e, offReason: refused });
    else if (userOff.includes(e.name)) disabled.push({ ...e, offReason: 'turned off by /mcp disable (disabledMcpServers)', userOff: true });
    else servers.push(e);
  }
  const unapproved = servers.filter((e) => e.scope === 'project' && !projectServerApproved(e.name, input.settings)).map((e) => e.name);
  return { servers, unapproved, disabled, warnings };
}

/**
 * The settings' server policy, as Claude Code's managed settings write it: `deniedMcpServers` and
 * `allowedMcpServers`, lists of `{serverName}`, `{serverCommand: [command, ...args]}` or
 * `{serverUrl: "https://*.example.com/*"}`. A denial wins; an allow list, when there is one, must match.
 */
export function policyRefusal(e: McpServerEntry, settings: Record<string, unknown>): string | undefined {
  const denied = Array.isArray(settings.deniedMcpServers) ? settings.deniedMcpServers : [];
  if (denied.some((item) => policyMatches(item, e))) return 'refused by the deniedMcpServers policy';
  const allowed = settings.allowedMcpServers;
  if (Array.isArray(allowed) && !allowed.some((item) => policyMatches(item, e))) return 'not in the allowedMcpServers policy';
  return undefined;
}

function policyMatches(item: unknown, e: McpServerEntry): boolean {
  if (!isRecord(item)) return false;
  if (typeof item.serverName === 'string') return item.serverName === e.name;
  const c = e.config;
  if (Array.isArray(item.serverCommand)) {
    return c?.type === 'stdio' && item.serverCommand.length === c.args.length + 1 && item.serverCommand.every((w, i) => w === [c.command, ...c.args][i]);
  }
  if (typeof item.serverUrl === 'string') {
    if (!c || c.type === 'stdio') return false;
    const re = new RegExp(
      `^${item.serverUrl
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    return re.test(c.url);
  }
  return false;
}

/** Whether the settings approve a project (.mcp.json) server for interactive sessions. */
export function projectServerApproved(name: string, settings: Record<string, unknown>): boolean {
  return settings.enableAllProjectMcpServers === true || stringList(settings.enabledMcpjsonServers).includes(name);
}

function fromCliConfig(value: string, input: McpConfigInput): McpServerEntry[] {
  const trimmed = value.trim();
  let text = trimmed;
  let source = '--mcp-config';
  if (!trimmed.startsWith('{')) {
    source = path.resolve(input.cwd, trimmed);
    try {
      text = readFileSync(source, 'utf8');
    } catch (err) {
      throw new McpConfigError(`--mcp-config: cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  }
  const label = source === '--mcp-config' ? '--mcp-config' : `--mcp-config ${source}`;
  const parsed = parseSettingsText(text, label);
  if (parsed.status === 'error') throw new McpConfigError(parsed.warning.replace(/; the file is ignored$/, ''));
  if (parsed.status !== 'loaded' || !isRecord(parsed.data.mcpServers)) throw new McpConfigError(`${label}: needs an "mcpServers" object`);
  return entriesOf(parsed.data.mcpServers, 'dynamic', source, input.env);
}

/** `.mcp.json` from the root down to the cwd: a nearer file's entry replaces a farther one's. */
function projectEntries(input: McpConfigInput, warnings: string[]): McpServerEntry[] {
  const files: string[] = [];
  for (let dir = path.resolve(input.cwd); ; dir = path.dirname(dir)) {
    const f = path.join(dir, '.mcp.json');
    if (existsSync(f)) files.push(f);
    if (path.dirname(dir) === dir) break;
  }
  const byName = new Map<string, McpServerEntry>();
  for (const file of files.reverse()) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const parsed = parseSettingsText(text, file);
    if (parsed.status === 'error') warnings.push(parsed.warning);
    else if (parsed.status === 'loaded') for (const e of entriesOf(parsed.data.mcpServers, 'project', file, input.env)) byName.set(e.name, e);
  }
  return [...byName.values()];
}

function readGlobalConfig(file: string, warnings: string[]): (Record<string, unknown> & { file: string }) | undefined {
  // The object the other readers at start share; a file that is not a JSON object is read again
  // below, for a warning that says where it goes wrong.
  try {
    return { ...readJsonObjectShared(file), file };
  } catch {
    // unreadable, or not a JSON object
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (!/mcpServers|disabledMcpServers/.test(text)) return undefined; // most of these files hold no servers: skip parsing
  const parsed = parseSettingsText(text, file);
  if (parsed.status === 'error') warnings.push(parsed.warning);
  return parsed.status === 'loaded' ? { ...parsed.data, file } : undefined;
}

function entriesOf(servers: unknown, scope: McpScope, source: string, env: McpConfigInput['env']): McpServerEntry[] {
  if (!isRecord(servers)) return [];
  return Object.entries(servers).map(([name, raw]) => serverEntry(name, raw, scope, source, env));
}

/** One server as written in a file or given by the Agent SDK: its transport and `alwaysLoad`, or why it cannot be used. */
export function serverEntry(name: string, raw: unknown, scope: McpScope, source: string, env: McpConfigInput['env']): McpServerEntry {
  const parsed = parseServer(raw, env);
  if ('error' in parsed) return { name, scope, source, error: parsed.error };
  const always = isRecord(raw) ? raw.alwaysLoad : undefined;
  if (always !== undefined && typeof always !== 'boolean') return { name, scope, source, error: '"alwaysLoad" must be true or false' };
  return { name, scope, source, config: parsed.config, ...(always ? { alwaysLoad: true } : {}) };
}

type Parsed = { config: McpTransportConfig } | { error: string };

/** One server entry, checked field by field, with its variables expanded. */
export function parseServer(raw: unknown, env: McpConfigInput['env']): Parsed {
  if (!isRecord(raw)) return { error: 'an entry must be an object' };
  const type = raw.type === undefined ? (raw.url !== undefined ? 'url-without-type' : 'stdio') : raw.type;
  const missing = new Set<string>();
  const x = (s: string) => expandVars(s, env, missing);
  let config: McpTransportConfig;
  if (type === 'stdio') {
    if (typeof raw.command !== 'string' || !raw.command.trim()) return { error: '"command" is required (a string) for a stdio server' };
    const args = raw.args === undefined ? [] : raw.args;
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string' || typeof a === 'number')) return { error: '"args" must be an array of strings' };
    const envMap = stringMap(raw.env, 'env');
    if (typeof envMap === 'string') return { error: envMap };
    if (raw.sandbox !== undefined && typeof raw.sandbox !== 'boolean') return { error: '"sandbox" must be true or false' };
    config = {
      type: 'stdio',
      command: x(raw.command),
      args: args.map((a) => x(String(a))),
      env: mapValues(envMap, x),
      ...(raw.sandbox === false ? { sandbox: false } : {}),
    };
  } else if (type === 'http' || type === 'streamable-http' || type === 'sse') {
    if (typeof raw.url !== 'string' || !raw.url.trim()) return { error: `"url" is required (a string) for a server of type "${type}"` };
    const headers = stringMap(raw.headers, 'headers');
    if (typeof headers === 'string') return { error: headers };
    const url = x(raw.url);
    if (raw.headersHelper !== undefined && (typeof raw.headersHelper !== 'string' || !raw.headersHelper.trim()))
      return { error: '"headersHelper" must be a command (a string)' };
    const oauth = oauthConfig(raw.oauth);
    if (typeof oauth === 'string') return { error: oauth };
    config = {
      type: type === 'sse' ? 'sse' : 'http',
      url,
      headers: mapValues(headers, x),
      ...(raw.headersHelper ? { headersHelper: raw.headersHelper } : {}),
      ...(oauth ? { oauth } : {}),
    };
    if (missing.size) return missingVars(missing);
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return { error: `"url" must be an http(s) URL, got ${JSON.stringify(url)}` };
  } else if (type === 'url-without-type') {
    return { error: 'an entry with a "url" needs a "type": "http" or "sse"' };
  } else if (type === 'ws') {
    if (typeof raw.url !== 'string' || !raw.url.trim()) return { error: '"url" is required (a string) for a server of type "ws"' };
    const headers = stringMap(raw.headers, 'headers');
    if (typeof headers === 'string') return { error: headers };
    if (raw.headersHelper !== undefined && (typeof raw.headersHelper !== 'string' || !raw.headersHelper.trim()))
      return { error: '"headersHelper" must be a command (a string)' };
    const url = x(raw.url);
    config = { type: 'ws', url, headers: mapValues(headers, x), ...(raw.headersHelper ? { headersHelper: raw.headersHelper } : {}) };
    if (missing.size) return missingVars(missing);
    if (!/^wss?:\/\//i.test(url) || !URL.canParse(url)) return { error: `"url" must be a ws:// or wss:// URL, got ${JSON.stringify(url)}` };
  } else {
    return { error: `unknown "type" ${JSON.stringify(type)}: use "stdio", "http", "sse" or "ws"` };
  }
  if (missing.size) return missingVars(missing);
  return { config };
}

/** `oauth: {clientId?, callbackPort?}`; undefined when absent, a reason when malformed. */
function oauthConfig(v: unknown): McpOAuthConfig | undefined | string {
  if (v === undefined) return undefined;
  if (!isRecord(v)) return '"oauth" must be an object: {"clientId": "…", "callbackPort": 8080}';
  const out: McpOAuthConfig = {};
  if (v.clientId !== undefined) {
    if (typeof v.clientId !== 'string' || !v.clientId.trim()) return '"oauth.clientId" must be a string';
    out.clientId = v.clientId.trim();
  }
  if (v.callbackPort !== undefined) {
    const port = v.callbackPort;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) return '"oauth.callbackPort" must be a port number (1-65535)';
    out.callbackPort = port;
  }
  return out;
}

const missingVars = (missing: Set<string>): Parsed => ({ error: `environment variable${missing.size > 1 ? 's' : ''} not set: ${[...missing].join(', ')}` });

/** `${VAR}` and `${VAR:-default}`; a variable that is not set (and has no default) is recorded in `missing`. */
export function expandVars(text: string, env: McpConfigInput['env'], missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    if (v === undefined) missing.add(name);
    return '';
  });
}

function stringMap(v: unknown, field: string): Record<string, string> | string {
  if (v === undefined) return {};
  if (!isRecord(v)) return `"${field}" must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean') return `"${field}.${k}" must be a string`;
    out[k] = String(val);
  }
  return out;
}

function mapValues(m: Record<string, string>, f: (s: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]));
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

function isRecord(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
