/**
 * What one request carries of the agent's tools and conversation. Without tool search every tool is
 * sent, ToolSearch excepted. With it (tools/tool-search/mode.ts), deferred tools wait: the model sees
 * their names in an `<available-deferred-tools>` list, loads them with ToolSearch, and from then on
 * each loaded one is sent with `defer_loading: true` (the API shows it where its `tool_reference`
 * is, so the cached prefix of tools and system prompt never changes).
 */
import type { ApiTool } from '../api/model-client.js';
import { userConfigDir } from '../settings/paths.js';
import { inputJsonSchema, toApiTool, toApiTools } from '../tools/api-schema.js';
import { isDeferred, TOOL_SEARCH, TOOL_SEARCH_BETA, toolSearchOn } from '../tools/tool-search/mode.js';
import { loadedToolNames, prepareMessages } from '../tools/tool-search/references.js';
import type { AgentOptions } from './agent-options.js';
import { withCacheBreakpoint } from '../base/conversation.js';
import type { ApiMessage } from '../base/events.js';
import type { ToolDescriptionContext } from '../base/tool.js';

export interface RequestParts {
  tools: ApiTool[];
  messages: ApiMessage[];
  betas: string[];
  /** Deferred tools whose definitions this request does not carry (not loaded yet). */
  notLoaded: ReadonlySet<string>;
}

type Agent = Pick<AgentOptions, 'tools' | 'env' | 'model' | 'state' | 'homeDir' | 'projectRoot' | 'instructions' | 'settings'>;

export function requestParts(conversation: readonly ApiMessage[], opts: Agent): RequestParts {
  const messages = withInstructions(conversation, opts.instructions?.startBlocks() ?? []);
  const env = toolDescriptionEnv(opts);
  const definitionChars = (t: (typeof opts.tools)[number]) => t.name.length + t.description(env).length + JSON.stringify(inputJsonSchema(t)).length;
  if (!toolSearchOn({ env: opts.env, model: opts.model, tools: opts.tools, definitionChars })) {
    const tools = opts.tools.filter((t) => t.name !== TOOL_SEARCH);
    const sent = new Set(tools.map((t) => t.name));
    return {
      tools: toApiTools(tools, env),
      messages: withCacheBreakpoint(prepareMessages(messages, { on: false, deferred: [], sent })),
      betas: [],
      notLoaded: new Set(),
    };
  }
  const loaded = loadedToolNames(messages);
  const deferred = opts.tools.filter(isDeferred);
  const waiting = deferred.filter((t) => !loaded.has(t.name));
  const eager = opts.tools.filter((t) => !isDeferred(t));
  const tools = [...toApiTools(eager, env), ...deferred.filter((t) => loaded.has(t.name)).map((t) => ({ ...toApiTool(t, env), defer_loading: true }))];
  const parts = { on: true, deferred: deferred.map((t) => t.name), sent: new Set(tools.map((t) => t.name)) };
  return { tools, messages: withCacheBreakpoint(prepareMessages(messages, parts)), betas: [TOOL_SEARCH_BETA], notLoaded: new Set(waiting.map((t) => t.name)) };
}

/**
 * The instruction files go at the head of the first user message of every request, as Claude Code
 * sends them (not in the system prompt, and not in the saved conversation: they are read afresh).
 */
export function withInstructions(messages: readonly ApiMessage[], blocks: readonly string[]): readonly ApiMessage[] {
  const first = messages[0];
  if (!blocks.length || first?.role !== 'user') return messages;
  const content = typeof first.content === 'string' ? [{ type: 'text' as const, text: first.content }] : first.content;
  return [{ ...first, content: [...blocks.map((text) => ({ type: 'text' as const, text })), ...content] }, ...messages.slice(1)];
}

/** What tool descriptions may depend on: the working directory, the platform, the project, where user files live. */
export function toolDescriptionEnv(
  opts: Pick<AgentOptions, 'state' | 'homeDir' | 'env' | 'projectRoot'> & { settings?: Record<string, unknown> },
): ToolDescriptionContext & {
  configDir: string;
  projectRoot: string;
} {
  return {
    cwd: opts.state.cwd,
    platform: process.platform,
    configDir: userConfigDir(opts.homeDir, opts.env.CLAUDE_CONFIG_DIR || undefined),
    projectRoot: opts.projectRoot,
    env: opts.env,
    ...(opts.settings ? { settings: opts.settings } : {}),
  };
}
