/**
 * An MCP server's tool as a wicket tool: `mcp__<server>__<tool>`, through the same gates as the
 * built-in ones. Its JSON Schema goes to the model as the server wrote it and is checked here before
 * the call (every bad field listed); it asks for permission unless a rule allows it
 * (`mcp__server`, `mcp__server__tool`); it is concurrency-safe only when the server marks it
 * read-only. The files its input names (path-fields.ts) are held against the Read and Edit deny
 * rules like a built-in tool's path.
 */
import { Channel } from '../base/channel.js';
import { defineTool, lazySchema, type Tool, type ToolProgress } from '../base/tool.js';
import { mcpInputPaths } from './path-fields.js';
import { mcpResultToModel } from './result.js';
import type { McpCallResult, McpCallTarget, McpToolInfo } from './types.js';
import { objectSchema, type InputValidator } from '../base/schema-check.js';

export interface McpToolOptions {
  /** Characters of output the model may receive (MAX_MCP_OUTPUT_TOKENS × 4). */
  maxOutputChars: number;
  /** The server's entry says `alwaysLoad: true`: its tools are never deferred. */
  alwaysLoad?: boolean;
  /** Where the server's definition came from (its scope: `sdk`, `user`, `project`, `plugin`, …). */
  source?: string;
}

/** Tool descriptions longer than this are cut, as in Claude Code. */
const MAX_DESCRIPTION = 2048;

/** `mcp__<server>__<tool>`, each part reduced to the characters tool names may hold. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeName(server)}__${normalizeName(tool)}`;
}

export function normalizeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

type Input = Record<string, unknown>;

export function mcpTool(server: string, info: McpToolInfo, target: McpCallTarget, opts: McpToolOptions): Tool<Input, McpCallResult> {
  const name = mcpToolName(server, info.name);
  const schema = objectSchema(info.inputSchema);
  const readOnly = info.annotations?.readOnlyHint === true;
  let validator: Promise<InputValidator | undefined> | undefined;
  const description = (info.description ?? '').trim() || `${info.name} (from the MCP server ${server})`;
  const hint = info._meta?.['anthropic/searchHint'];
  return defineTool<Input, McpCallResult>({
    name,
    ...(opts.source ? { mcpServer: { name: server, source: opts.source } } : {}),
    shouldDefer: !opts.alwaysLoad && info._meta?.['anthropic/alwaysLoad'] !== true,
    ...(typeof hint === 'string' && hint.trim() ? { searchHint: hint.replace(/\s+/g, ' ').trim() } : {}),
    description: () => (description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description),
    inputSchema: lazySchema((z) => z.looseObject({})),
    inputJsonSchema: schema,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => info.annotations?.destructiveHint === true,
    async validateInput(input) {
      const check = await (validator ??= target.validator(schema).catch(() => undefined));
      const problems = check?.(input) ?? [];
      return problems.length ? { ok: false, message: `Invalid input for ${name}:\n${problems.join('\n')}` } : { ok: true };
    },
    // The files the input names: held against Read deny rules (a read-only tool) or Read and Edit
    // deny rules (any other), and ask rules; an allow rule on a path never approves an MCP call.
    permissionPaths: (input, ctx) => {
      const paths = mcpInputPaths(input, ctx.cwd, ctx.homeDir);
      return paths.length ? { access: readOnly ? 'read' : 'write', paths, denyOnly: true } : undefined;
    },
    requiresPerson: () =>
      info._meta?.['anthropic/requiresUserInteraction'] === true
        ? `the MCP server ${server} asks for a person to approve every call of ${info.name}`
        : undefined,
    async checkPermissions() {
      return { behavior: 'ask', reason: `${info.name} is a tool of the MCP server ${server}`, suggestions: [name] };
    },
    async *call(input, ctx) {
      const progress = new Channel<ToolProgress>();
      const onProgress = (p: { progress: number; total?: number; message?: string }) =>
        progress.push({ type: 'progress', message: p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress)), data: { ...p } });
      const done = target.callTool(info.name, input, { signal: ctx.signal, onProgress }).finally(() => progress.close());
      done.catch(() => {}); // awaited below; handled here so it is never reported as unhandled meanwhile
      for await (const p of progress) yield p;
      return await done;
    },
    toModelResult: (output) => mcpResultToModel(output, { maxChars: opts.maxOutputChars, toolName: name }),
    summary: (input) => `${server} · ${info.name}${argsPreview(input)}`,
    display: (output) => ({ summary: output.isError ? `${info.name} reported an error` : `${info.name} answered` }),
  });
}

function argsPreview(input: Input): string {
  const text = JSON.stringify(input);
  if (!text || text === '{}') return '';
  return ` ${text.length > 80 ? `${text.slice(0, 79)}…` : text}`;
}
