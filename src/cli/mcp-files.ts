/**
 * The files MCP servers are kept in, read and changed in place: `~/.claude.json` (`mcpServers` for the
 * user scope, `projects["<cwd>"].mcpServers` for the local one) and `<cwd>/.mcp.json` (project).
 * Every other key is kept; a file that is not valid JSON is never overwritten.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globalConfigPath } from '../settings/paths.js';
import { writeFileAtomic } from '../tools/fs/write-file-atomic.js';

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

/** The file's object, {} when it does not exist; throws with the file named when it is not a JSON object. */
function readObject(file: string): Record<string, any> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message}); fix it by hand, it was not changed`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file} does not hold a JSON object; it was not changed`);
  return value as Record<string, any>;
}

/** The object that holds `mcpServers` for the scope, created on the way when `create`. */
function holder(data: Record<string, any>, scope: WritableScope, where: Where, create: boolean): Record<string, any> | undefined {
  if (scope !== 'local') return data;
  if (!isObject(data.projects)) {
    if (!create) return undefined;
    data.projects = {};
  }
  if (!isObject(data.projects[where.cwd])) {
    if (!create) return undefined;
    data.projects[where.cwd] = {};
  }
  return data.projects[where.cwd];
}

export function readServers(scope: WritableScope, where: Where): Record<string, unknown> {
  const h = holder(readObject(fileOf(scope, where)), scope, where, false);
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
  const data = readObject(file);
  const h = holder(data, scope, where, true)!;
  if (h.mcpServers !== undefined && !isObject(h.mcpServers)) throw new Error(`${file}: "mcpServers" is not an object; it was not changed`);
  h.mcpServers ??= {};
  edit(h.mcpServers);
  await writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
