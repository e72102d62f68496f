/**
 * `wicket tools check [--tool NAME…] [--json]`: every tool a session here would have (the built-ins
 * and the configured MCP servers' tools) answers the three questions of PRODUCT.md §1 in a scratch
 * copy of the project: nonsense input, a deny rule, a call beside another. The MCP servers are
 * started in the copy. Exit 1 when a tool fails a question, 2 on bad usage or unreadable settings.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { errorMessage } from '../base/errors.js';
import type { Tool } from '../base/tool.js';
import { checkTools, makeScratch, type ToolCheck } from '../core/policy/tools-check/run.js';
import type { McpServers } from '../mcp/servers.js';
import { SettingsUnreadableError, stopMessage } from '../settings/problem.js';
import { BUILTIN_TOOLS, findTool } from '../tools/registry.js';
import { configuredServers } from './mcp-command.js';
import { formatToolChecks, summaryLine } from '../core/policy/tools-check/text.js';
import { toolChecksJson } from './tools-format.js';

export const TOOLS_USAGE = 'usage: wicket tools check [--tool NAME…] [--json]';

export async function runToolsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === '-h' || sub === '--help' || sub === undefined) {
    process.stdout.write(`${TOOLS_USAGE}\n`);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== 'check') {
    process.stderr.write(`wicket: tools: unknown command ${JSON.stringify(sub)}\n${TOOLS_USAGE}\n`);
    return 2;
  }
  let values: { tool?: string[]; json?: boolean };
  try {
    ({ values } = process
      .getBuiltinModule('node:util')
      .parseArgs({ args: rest, options: { tool: { type: 'string', multiple: true }, json: { type: 'boolean' } } }));
  } catch (err) {
    process.stderr.write(`wicket: tools check: ${errorMessage(err)}\n${TOOLS_USAGE}\n`);
    return 2;
  }
  try {
    return await check(values.tool, values.json === true);
  } catch (err) {
    if (err instanceof SettingsUnreadableError) {
      process.stderr.write(stopMessage(err.problems, undefined, false));
      return 2;
    }
    process.stderr.write(`wicket: tools check: ${errorMessage(err)}\n`);
    return 1;
  }
}

async function check(only: string[] | undefined, json: boolean): Promise<number> {
  const env = process.env;
  const where = { cwd: realpathSync(process.cwd()), home: env.HOME ?? homedir(), configDir: env.CLAUDE_CONFIG_DIR || undefined };
  const scratch = makeScratch(where.cwd);
  let servers: McpServers | undefined;
  try {
    const configured = configuredServers(where, scratch.project);
    if (configured.entries.length) servers = await configured.connect();
    for (const s of servers?.list() ?? [])
      if (s.status !== 'connected' && s.status !== 'disabled')
        process.stderr.write(`wicket: MCP server "${s.name}": ${s.status}${s.error ? ` (${s.error})` : ''}; its tools are not checked\n`);
    const all: Tool[] = [...BUILTIN_TOOLS, ...(servers?.tools() ?? [])];
    const tools = only ? only.map((n) => findTool(all, n)) : all;
    const missing = only?.filter((_, i) => !tools[i]);
    if (missing?.length) {
      process.stderr.write(`wicket: tools check: no tool named ${missing.join(', ')}. The tools are: ${all.map((t) => t.name).join(', ')}\n`);
      return 2;
    }
    const resourceTools = new Set(servers?.resourceToolNames ?? []);
    const width = Math.max(...tools.map((t) => t!.name.length));
    const onTool = json ? undefined : (c: ToolCheck) => process.stdout.write(formatToolChecks([c], width));
    const report = await checkTools({
      scratch,
      env,
      tools: tools as Tool[],
      runMcp: true,
      sourceOf: (t) => (resourceTools.has(t.name) ? 'mcp' : undefined),
      onTool,
    });
    process.stdout.write(json ? `${JSON.stringify(toolChecksJson(report), null, 2)}\n` : `${summaryLine(report.tools.length, report.failed)}\n`);
    return report.failed ? 1 : 0;
  } finally {
    await servers?.close().catch(() => {});
    scratch.remove();
  }
}
