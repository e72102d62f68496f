/**
 * The files MCP servers are kept in, read and changed in place: `~/.claude.json` (`mcpServers` for the
 * user scope, `projects["<cwd>"].mcpServers` for the local one) and `<cwd>/.mcp.json` (project).
 * Every other key is kept; a file that is not valid JSON is never overwritten.
 */
import path from 'node:path';
import { editJsonObject, projectEntry, readJsonObject } from '../settings/global-config.js';
import { globalConfigPath } from '../settings/paths.js';

export type WritableScope = 'local' | 'project' | 'user';

interface Where {
  cwd: string;
  home: string;
  configDir?: string;
}

export function configFileFor(scope: WritableScope, where: Where): string {
  const global = globalConfigPath(where.home, where.configDir);
  return scope === 'project' ? path.join(where.cwd, '.mcp.json') : scope === 'local' ? `${global} [project: ${where.cwd}]` : global;
}

function fileOf(scope: WritableScope, where: Where): string {
  return scope === 'project' ? path.join(where.cwd, '.mcp.json') : globalConfigPath(where.home, where.configDir);
}

/** The object that holds `mcpServers` for the scope, created on the way when `create`. */
function holder(data: Record<string, any>, scope: WritableScope, where: Where, create: boolean): Record<string, any> | undefined {
  return scope === 'local' ? projectEntry(data, where.cwd, create) : data;
}

export function readServers(scope: WritableScope, where: Where): Record<string, unknown> {
  const h = holder(readJsonObject(fileOf(scope, where)), scope, where, false);
  return h && isObject(h.mcpServers) ? h.mcpServers : {};
}

export async function writeServer(scope: WritableScope, where: Where, name: string, entry: Record<string, unknown>): Promise<void> {
  await change(scope, where, (servers) => {
    servers[name] = entry;
  });
}

export async function removeServer(scope: WritableScope, where: Where, name: string): Promise<void> {
  await change(scope, where, (servers) => {
    delete servers[name];
  });
}

async function change(scope: WritableScope, where: Where, edit: (servers: Record<string, unknown>) => void): Promise<void> {
  const file = fileOf(scope, where);
  await editJsonObject(file, (data) => {
    const h = holder(data, scope, where, true)!;
    if (h.mcpServers !== undefined && !isObject(h.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object; it was not changed`);
    h.mcpServers ??= {};
    edit(h.mcpServers);
  });
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
