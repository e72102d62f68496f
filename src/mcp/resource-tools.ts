/**
 * ListMcpResourcesTool and ReadMcpResourceTool, as in Claude Code: the model lists the resources of
 * the connected MCP servers and reads one by server and URI. Both only read and may run beside other
 * calls; they ask for no permission, but a bare deny rule that turns a server's tools off
 * (`mcp__github`) keeps its resources away too. Output is capped like MCP tool output
 * (MAX_MCP_OUTPUT_TOKENS).
 */
import { ToolError } from '../base/errors.js';
import { ruleNamesTool } from '../base/rule-parse.js';
import type { PermissionRules } from '../base/permission-types.js';
import { defineTool, lazySchema, type Tool } from '../base/tool.js';
import type { McpResourceContents, McpResourceInfo } from './types.js';
import { mcpResultToModel, resourceToModel } from './result.js';
import { normalizeName } from './tool.js';

export const LIST_RESOURCES_TOOL = 'ListMcpResourcesTool';
export const READ_RESOURCE_TOOL = 'ReadMcpResourceTool';

/** What the resource tools need of the session's servers (McpServers). */
export interface McpResourceSource {
  /** The connected servers, in configured order, and whether each offers resources. */
  connectedServers(): Array<{ name: string; hasResources: boolean }>;
  /** The server's resources, listed now (every page). */
  listResources(server: string): Promise<McpResourceInfo[]>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContents[]>;
}

export interface ResourceToolOptions {
  /** Characters of output the model may receive (MAX_MCP_OUTPUT_TOKENS × 4). */
  maxOutputChars: number;
}

const NO_RESOURCES = 'No resources found. MCP servers may still provide tools even if they have no resources.';

const LIST_DESCRIPTION = `List the resources (documents, records, files) that the connected MCP servers offer. Every entry names its \`server\`, so you can read it with ReadMcpResourceTool.
Pass \`server\` to list one server's resources; leave it out for all of them.`;

const READ_DESCRIPTION = `Read one resource of an MCP server: give the \`server\` name and the resource's \`uri\` (from ListMcpResourcesTool, or one the user mentioned).`;

/** A bare deny rule for the server's tools (`mcp__server`, `mcp__server__*`) hides its resources too. */
export function serverTurnedOff(server: string, rules: PermissionRules | undefined): boolean {
  const probe = `mcp__${normalizeName(server)}__`;
  return (rules?.deny ?? []).some((r) => !r.error && r.specifier === undefined && r.toolName.startsWith('mcp__') && ruleNamesTool(r.toolName, probe));
}

/** Undefined when `server` may be used; otherwise why not, in words the model can act on. */
function serverProblem(source: McpResourceSource, server: string, rules: PermissionRules | undefined, needResources: boolean): string | undefined {
  const servers = source.connectedServers().filter((s) => !serverTurnedOff(s.name, rules));
  const found = servers.find((s) => s.name === server);
  if (!found) return `Server "${server}" not found. Available servers: ${servers.map((s) => s.name).join(', ') || '(none)'}`;
  if (needResources && !found.hasResources) return `Server "${server}" does not support resources`;
  return undefined;
}

interface ListInput {
  server?: string;
}
type Listed = Array<McpResourceInfo & { server: string }>;
interface ListOutput {
  resources: Listed;
  failures: string[];
}

export function listResourcesTool(source: McpResourceSource, opts: ResourceToolOptions): Tool<ListInput, ListOutput> {
  return defineTool<ListInput, ListOutput>({
    name: LIST_RESOURCES_TOOL,
    // Like the MCP tools, waits behind ToolSearch when tool search is on (as in Claude Code).
    shouldDefer: true,
    description: () => LIST_DESCRIPTION,
    inputSchema: lazySchema((z) => z.strictObject({ server: z.string().optional() })),
    inputJsonSchema: {
      type: 'object',
      properties: { server: { type: 'string', description: 'Optional server name to filter resources by' } },
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async validateInput(input, ctx) {
      const problem = input.server === undefined ? undefined : serverProblem(source, input.server, ctx.rules, false);
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    checkPermissions: async () => ({ behavior: 'allow' }),
    async *call(input, ctx) {
      const names = source
        .connectedServers()
        .filter((s) => s.hasResources && !serverTurnedOff(s.name, ctx.rules) && (input.server === undefined || s.name === input.server))
        .map((s) => s.name);
      const resources: Listed = [];
      const failures: string[] = [];
      for (const server of names) {
        try {
          for (const r of await source.listResources(server)) resources.push({ ...r, server });
        } catch (err) {
          failures.push(`resources/list failed for "${server}": ${cleanError(err)}`);
        }
      }
      return { resources, failures };
    },
    toModelResult(output) {
      const text = output.resources.length ? JSON.stringify(output.resources) : NO_RESOURCES;
      const notes = output.failures.length ? `\n${output.failures.join('\n')}` : '';
      return mcpResultToModel({ content: [{ type: 'text', text: text + notes }] }, { maxChars: opts.maxOutputChars, toolName: LIST_RESOURCES_TOOL });
    },
    summary: (input) => (input.server ? `resources of ${input.server}` : 'resources of every MCP server'),
    display: (output) => ({
      summary: `${output.resources.length} resource${output.resources.length === 1 ? '' : 's'}`,
      preview: [...output.resources.map((r) => `@${r.server}:${r.uri}  ${r.name}`), ...output.failures].join('\n'),
    }),
  });
}

interface ReadInput {
  server: string;
  uri: string;
}
interface ReadOutput {
  uri: string;
  contents: McpResourceContents[];
}

/** ReadMcpResourceTool, which also names the connected servers (for `@server:uri` mentions). */
export interface ReadResourceTool extends Tool<ReadInput, ReadOutput> {
  servers(): string[];
}

export function isReadResourceTool(tool: Tool | undefined): tool is ReadResourceTool {
  return tool?.name === READ_RESOURCE_TOOL && typeof (tool as Partial<ReadResourceTool>).servers === 'function';
}

export function readResourceTool(source: McpResourceSource, opts: ResourceToolOptions): ReadResourceTool {
  const tool = defineTool<ReadInput, ReadOutput>({
    name: READ_RESOURCE_TOOL,
    shouldDefer: true,
    description: () => READ_DESCRIPTION,
    inputSchema: lazySchema((z) => z.strictObject({ server: z.string(), uri: z.string() })),
    inputJsonSchema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The MCP server name' },
        uri: { type: 'string', description: 'The resource URI to read' },
      },
      required: ['server', 'uri'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async validateInput(input, ctx) {
      const problem =
        serverProblem(source, input.server, ctx.rules, true) ?? (input.uri.trim() ? undefined : 'uri is empty: pass a URI from ListMcpResourcesTool');
      return problem ? { ok: false, message: problem } : { ok: true };
    },
    checkPermissions: async () => ({ behavior: 'allow' }),
    async *call(input, ctx) {
      try {
        return { uri: input.uri, contents: await source.readResource(input.server, input.uri, ctx.signal) };
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        throw new ToolError('execution_failed', `Could not read ${input.uri} from "${input.server}": ${cleanError(err)}`);
      }
    },
    toModelResult: (output) => resourceToModel(output.contents, { maxChars: opts.maxOutputChars, uri: output.uri }),
    summary: (input) => `${input.server} · ${input.uri}`,
    display: (output) => ({ summary: `read ${output.uri}` }),
  });
  return { ...tool, servers: () => source.connectedServers().map((s) => s.name) };
}

function cleanError(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/^MCP error -?\d+: /, '');
}
