/** Tool → the `tools` entry sent to the Messages API (JSON Schema derived from the zod schema). */
import { zodLib } from '../base/lib/zod-lib.js';
import type { ApiTool } from '../api/model-client.js';
import type { Tool } from '../base/tool.js';

/** The built-in tools' schemas, computed at build time (build.mjs); absent when running the sources. */
declare const WICKET_TOOL_SCHEMAS: Record<string, Record<string, unknown>> | undefined;
const prebuilt = typeof WICKET_TOOL_SCHEMAS === 'object' ? WICKET_TOOL_SCHEMAS : undefined;

const cache = new WeakMap<Tool, Record<string, unknown>>();

export function inputJsonSchema(tool: Tool): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema;
  let schema = cache.get(tool) ?? (tool.name.startsWith('mcp__') ? undefined : prebuilt?.[tool.name]);
  if (!schema) {
    schema = zodLib().z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete schema.$schema;
    if (schema.type !== 'object') schema = { type: 'object', properties: {}, ...schema };
    cache.set(tool, schema);
  }
  return schema;
}

type DescriptionEnv = { cwd: string; platform: string; configDir?: string; projectRoot?: string };

/** One tool as the API's `tools` entry. */
export function toApiTool(tool: Tool, env: DescriptionEnv): ApiTool {
  return { name: tool.name, description: tool.description(env), input_schema: inputJsonSchema(tool) };
}

/** The API's tool list, with a cache breakpoint on the last entry (the stable prefix). */
export function toApiTools(tools: readonly Tool[], env: DescriptionEnv): ApiTool[] {
  const out: ApiTool[] = tools.map((t) => toApiTool(t, env));
  const last = out[out.length - 1];
  if (last) out[out.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  return out;
}
