/**
 * ToolSearch: loads deferred tools (MCP tools, when tool search is on) for the model. Its result is
 * a `tool_reference` block per match, which the API replaces with that tool's definition; from then
 * on the request carries the tool (`defer_loading: true`), and the model may call it. Read-only: it
 * never asks.
 */
import { defineTool, lazySchema } from '../../base/tool.js';
import { isDeferred, TOOL_SEARCH } from './mode.js';
import { DEFAULT_MAX_RESULTS, searchTools, type Searchable } from './search.js';

export interface ToolSearchInput {
  query: string;
  max_results?: number;
}

export interface ToolSearchOutput {
  matches: string[];
  query: string;
  total_deferred_tools: number;
}

const QUERY_HELP = 'Query to find deferred tools. Use "select:<tool_name>" for direct selection, or keywords to search.';
const MAX_HELP = `Maximum number of results to return (default: ${DEFAULT_MAX_RESULTS})`;

const inputSchema = lazySchema((z) =>
  z.strictObject({
    query: z.string().describe(QUERY_HELP),
    max_results: z.number().optional().default(DEFAULT_MAX_RESULTS).describe(MAX_HELP),
  }),
);

/** The same schema as JSON Schema, written out: the request needs no zod. */
const INPUT_JSON_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: QUERY_HELP },
    max_results: { type: 'number', default: DEFAULT_MAX_RESULTS, description: MAX_HELP },
  },
  required: ['query'],
  additionalProperties: false,
};

const DESCRIPTION = `Loads deferred tools so that they can be called.

Deferred tools are listed by name only, in an <available-deferred-tools> message. Until one is loaded its parameters are unknown, so it cannot be called correctly. This tool matches a query against the deferred tools and loads the matches: their full definitions appear in the result, and from then on each can be called like any tool defined at the start.

Query forms:
- "select:mcp__github__create_issue,mcp__slack__send_message" — load these tools by name
- "notebook jupyter" — keyword search, up to max_results best matches
- "+slack send" — only tools matching "slack", ranked by the other words

Load a deferred tool before its first call. Several can be loaded at once with select:.`;

export const toolSearchTool = defineTool<ToolSearchInput, ToolSearchOutput>({
  name: TOOL_SEARCH,
  description: () => DESCRIPTION,
  inputSchema,
  inputJsonSchema: INPUT_JSON_SCHEMA,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async checkPermissions() {
    return { behavior: 'allow', reason: 'it only loads tool definitions' };
  },
  // eslint-disable-next-line require-yield
  async *call(input, ctx) {
    const env = { cwd: ctx.cwd, platform: process.platform, projectRoot: ctx.projectRoot };
    const searchable = (tools: typeof ctx.tools = []): Searchable[] =>
      tools.map((t) => ({ name: t.name, description: t.description(env), ...(t.searchHint ? { searchHint: t.searchHint } : {}) }));
    const deferred = (ctx.tools ?? []).filter(isDeferred);
    const all = (ctx.tools ?? []).filter((t) => t.name !== TOOL_SEARCH);
    const matches = searchTools(input.query, searchable(deferred), searchable(all), input.max_results ?? DEFAULT_MAX_RESULTS);
    return { matches, query: input.query, total_deferred_tools: deferred.length };
  },
  toModelResult: (output) =>
    output.matches.length
      ? { content: output.matches.map((name) => ({ type: 'tool_reference' as const, tool_name: name })) }
      : {
          content: output.total_deferred_tools
            ? `No matching deferred tools found. Try other keywords, or select: with a name from <available-deferred-tools>.`
            : 'No matching deferred tools found: no tool is deferred.',
        },
  summary: (input) => JSON.stringify(input.query),
  display: (output) => ({ summary: output.matches.length ? `Loaded ${output.matches.join(', ')}` : 'No matching tools' }),
});
