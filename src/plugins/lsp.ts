/**
 * Language servers as Claude Code's plugins configure them: `.lsp.json` at the plugin root and the
 * manifest's `lspServers` (files or inline), each a map of server name → `{ command, args?,
 * extensionToLanguage, env?, initializationOptions?, settings?, startupTimeout? }`, bare or under an
 * `"lspServers"` key. `${CLAUDE_PLUGIN_ROOT}` (and any other `${VAR}`) is expanded in the command,
 * arguments and env. A project's own `.lsp.json` has the same shape (lsp/config.ts).
 */
import { expandVars } from '../mcp/config.js';
import { isObject } from '../settings/validate.js';
import type { LspServerConfig } from '../base/lsp.js';
import { readConfig } from './files.js';
import type { LoadedPlugin, PluginError } from './types.js';

/** The TCP transport and the like are not spoken: only stdio. */
const SUPPORTED_TRANSPORTS = new Set([undefined, 'stdio']);

/** One map of servers; a bad entry is an error naming it, the others stand. */
export function parseLspServers(
  data: Record<string, unknown>,
  o: { source: string; prefix?: string; env: Record<string, string | undefined> },
): { servers: LspServerConfig[]; errors: string[] } {
  const map = isObject(data.lspServers) ? data.lspServers : data;
  const servers: LspServerConfig[] = [];
  const errors: string[] = [];
  for (const [key, raw] of Object.entries(map)) {
    const parsed = parseServer(raw, o.env);
    if (typeof parsed === 'string') errors.push(`language server "${key}": ${parsed}`);
    else servers.push({ ...parsed, name: `${o.prefix ?? ''}${key}`, source: o.source });
  }
  return { servers, errors };
}

function parseServer(raw: unknown, env: Record<string, string | undefined>): Omit<LspServerConfig, 'name' | 'source'> | string {
  if (!isObject(raw)) return 'must be an object';
  const missing = new Set<string>();
  const x = (s: string) => expandVars(s, env, missing);
  if (typeof raw.command !== 'string' || !raw.command.trim()) return '"command" must be a non-empty string';
  if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === 'string'))) return '"args" must be a list of strings';
  if (!isObject(raw.extensionToLanguage) || !Object.values(raw.extensionToLanguage).every((v) => typeof v === 'string')) {
    return '"extensionToLanguage" must map file extensions (".ts") to language ids';
  }
  if (raw.env !== undefined && !(isObject(raw.env) && Object.values(raw.env).every((v) => typeof v === 'string'))) return '"env" must be an object of strings';
  if (!SUPPORTED_TRANSPORTS.has(raw.transport as string | undefined)) return `transport "${String(raw.transport)}" is not supported (only stdio)`;
  const extensionToLanguage: Record<string, string> = {};
  for (const [ext, lang] of Object.entries(raw.extensionToLanguage as Record<string, string>)) {
    extensionToLanguage[(ext.startsWith('.') ? ext : `.${ext}`).toLowerCase()] = lang;
  }
  const out: Omit<LspServerConfig, 'name' | 'source'> = {
    command: x(raw.command),
    args: ((raw.args as string[] | undefined) ?? []).map(x),
    extensionToLanguage,
  };
  if (raw.env) out.env = Object.fromEntries(Object.entries(raw.env as Record<string, string>).map(([k, v]) => [k, x(v)]));
  if (raw.initializationOptions !== undefined) out.initializationOptions = raw.initializationOptions;
  if (raw.settings !== undefined) out.settings = raw.settings;
  if (typeof raw.startupTimeout === 'number' && raw.startupTimeout > 0) out.startupTimeout = raw.startupTimeout;
  if (missing.size) return `environment variable${missing.size > 1 ? 's' : ''} not set: ${[...missing].join(', ')}`;
  return out;
}

/** Every plugin's language servers, named `plugin:<plugin>:<server>`, each with CLAUDE_PLUGIN_ROOT in its environment. */
export function pluginLspServers(
  plugins: readonly LoadedPlugin[],
  env: Record<string, string | undefined>,
): { servers: LspServerConfig[]; errors: PluginError[] } {
  const servers: LspServerConfig[] = [];
  const errors: PluginError[] = [];
  for (const plugin of plugins) {
    for (const source of plugin.paths.lspServers) {
      const read = readConfig(source);
      const where = 'file' in source ? { path: source.file } : {};
      if ('error' in read) {
        errors.push({ plugin: plugin.name, type: 'lsp-config-invalid', message: read.error, ...where });
        continue;
      }
      const parsed = parseLspServers(read.data, {
        source: `plugin:${plugin.name}`,
        prefix: `plugin:${plugin.name}:`,
        env: { ...env, CLAUDE_PLUGIN_ROOT: plugin.root },
      });
      for (const s of parsed.servers) servers.push({ ...s, env: { CLAUDE_PLUGIN_ROOT: plugin.root, ...s.env } });
      for (const message of parsed.errors) errors.push({ plugin: plugin.name, type: 'lsp-config-invalid', message: `${read.label}: ${message}`, ...where });
    }
  }
  return { servers, errors };
}
