/**
 * The stream-json lines of a run, as Claude Code writes them and the Agent SDK types them
 * (SDKMessage): the core's events become `assistant`, `user`, `stream_event` and `system/*` lines.
 * Print mode's stream-json output and the SDK mode both write through here.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent } from '../base/events.js';
import type { PluginSet } from '../plugins/types.js';
import { randomUuid } from '../base/ids.js';
import { AssistantBlocks } from './assistant-blocks.js';
import { apiErrorText, type RunState } from './result.js';

/** A server as the init message lists it: Claude Code's statuses (connected, failed, pending, disabled…). */
export interface McpServerStatus {
  name: string;
  status: string;
}

export interface StreamOptions {
  /** --include-partial-messages: the API's raw stream events as `stream_event` lines. */
  includePartialMessages: boolean;
  /** --include-gate-traces (or settings includeGateTraces): a `gate_trace` line before the tool results it explains. */
  includeGateTraces: boolean;
}

/** What system/init lists besides the agent's own state (the SDK mode fills it; print mode keeps it short). */
export interface InitExtras {
  slashCommands?: string[];
  agents?: string[];
  skills?: string[];
  additionalDirectories?: string[];
}

type Line = Record<string, unknown>;

/** The Agent SDK's error kinds (SDKAssistantMessageError), for api_retry and an API error's assistant message. */
export function apiErrorKind(status: number | undefined, text = ''): string {
  if (status === 529 || /overloaded/i.test(text)) return 'overloaded';
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 404) return 'model_not_found';
  if (status !== undefined && status >= 500) return 'server_error';
  // No response at all (a connection cut, a silent server), a 400…
  return 'unknown';
}

export function initMessage(agent: AgentOptions, mcpServers: McpServerStatus[], plugins: PluginSet | undefined, extras: InitExtras = {}): Line {
  return {
    type: 'system',
    subtype: 'init',
    uuid: randomUuid(),
    session_id: agent.sessionId,
    cwd: agent.state.cwd,
    model: agent.model,
    tools: agent.tools.map((t) => t.name),
    mcp_servers: mcpServers,
    permissionMode: agent.permission.mode,
    slash_commands: extras.slashCommands ?? [],
    ...(extras.agents ? { agents: extras.agents } : {}),
    ...(extras.skills ? { skills: extras.skills } : {}),
    output_style: agent.outputStyle ?? 'default',
    plugins: (plugins?.plugins ?? []).map((p) => ({ name: p.name, path: p.root, ...(p.version ? { version: p.version } : {}) })),
    ...(plugins?.errors.length ? { plugin_errors: plugins.errors } : {}),
    apiKeySource: apiKeySource(agent),
    ...(extras.additionalDirectories ? { original_cwd: agent.projectRoot, additional_directories: extras.additionalDirectories } : {}),
    wicket_version: typeof agent.env.npm_package_version === 'string' ? agent.env.npm_package_version : undefined,
  };
}

/**
 * Turns the core's events into lines. Gate traces of a batch wait for the user message with the
 * tool results they explain, and go out just before it, after the assistant message.
 */
export class StreamLines {
  private readonly pendingTraces: Line[] = [];
  private readonly blocks = new AssistantBlocks();
  /** The uuid of the newest assistant or tool-results line. */
  private named: string | undefined;

  constructor(
    private readonly write: (line: Line) => void,
    private readonly agent: () => Pick<AgentOptions, 'sessionId'>,
    private readonly opts: StreamOptions,
  ) {}

  /** The fields every line carries. */
  base(): { session_id: string; uuid: string; parent_tool_use_id: null } {
    return { session_id: this.agent().sessionId, uuid: randomUuid(), parent_tool_use_id: null };
  }

  event(ev: AgentEvent): void {
    const line = this.lineFor(ev);
    if (line) this.write(line);
  }

  private assistantLine(message: Line): Line {
    const line = { type: 'assistant', message, ...this.base(), timestamp: new Date().toISOString() };
    this.named = line.uuid;
    return line;
  }

  /**
   * The uuid of the line that showed the message of `ev` (an assistant message: its last block's;
   * tool results: their user line's), for the transcript record of the same message.
   */
  uuidOf(ev: AgentEvent): string | undefined {
    return ev.type === 'assistant_message' || ev.type === 'tool_results_message' ? this.named : undefined;
  }

  private lineFor(ev: AgentEvent): Line | undefined {
    const base = this.base();
    switch (ev.type) {
      case 'stream_event': {
        const block = this.blocks.onStreamEvent(ev.event);
        if (block) this.write(this.assistantLine(block));
        if (!this.opts.includePartialMessages) return undefined;
        const id = this.blocks.messageId;
        return { type: 'stream_event', event: ev.event, ...base, ...(id ? { api_message_id: id } : {}) };
      }
      case 'assistant_message':
        for (const block of this.blocks.onWholeMessage(ev.message)) this.write(this.assistantLine(block));
        return undefined;
      case 'tool_results_message':
        for (const t of this.pendingTraces.splice(0)) this.write({ type: 'system', subtype: 'gate_trace', ...t, ...this.base() });
        this.named = base.uuid;
        return { type: 'user', message: ev.message, ...base, timestamp: new Date().toISOString() };
      case 'tool_result':
        if (this.opts.includeGateTraces) this.pendingTraces.push({ tool_use_id: ev.toolUseId, tool_name: ev.name, trace: ev.trace });
        return undefined;
      case 'retry':
        return retryLine(ev, base);
      case 'warning':
        return { type: 'system', subtype: 'informational', message: ev.message, content: ev.message, level: 'warning', ...base };
      case 'compact':
        return { type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: ev.trigger, pre_tokens: ev.preTokens }, ...base };
      default:
        return taskLine(ev, base);
    }
  }
}

function retryLine(ev: Extract<AgentEvent, { type: 'retry' }>, base: Line): Line {
  return {
    type: 'system',
    subtype: 'api_retry',
    attempt: ev.attempt,
    max_retries: ev.maxRetries,
    retry_delay_ms: ev.delayMs,
    error_status: ev.status ?? null,
    error: apiErrorKind(ev.status, ev.error),
    // wicket's own sentence for the person, beside the SDK's error kind.
    error_message: ev.error,
    ...base,
  };
}

function taskLine(ev: AgentEvent, base: Line): Line | undefined {
  if (ev.type === 'task_started') {
    const tool = ev.toolUseId ? { tool_use_id: ev.toolUseId } : {};
    return { type: 'system', subtype: 'task_started', task_id: ev.taskId, ...tool, description: ev.description, task_type: ev.taskType, ...base };
  }
  if (ev.type === 'task_progress') {
    const p = ev.progress;
    const usage = { total_tokens: p.usage.totalTokens, tool_uses: p.usage.toolUses, duration_ms: p.usage.durationMs };
    const named = { ...(p.lastToolName ? { last_tool_name: p.lastToolName } : {}), ...(p.subagentType ? { subagent_type: p.subagentType } : {}) };
    const tool = p.toolUseId ? { tool_use_id: p.toolUseId } : {};
    return { type: 'system', subtype: 'task_progress', task_id: p.taskId, ...tool, description: p.description, usage, ...named, ...base };
  }
  if (ev.type === 'task_notification') {
    const n = ev.notice;
    const usage = n.usage && { total_tokens: n.usage.totalTokens, tool_uses: n.usage.toolUses, duration_ms: n.usage.durationMs };
    return {
      type: 'system',
      subtype: 'task_notification',
      task_id: n.taskId,
      ...(n.toolUseId ? { tool_use_id: n.toolUseId } : {}),
      status: n.status,
      output_file: n.outputFile,
      summary: n.summary,
      ...(usage ? { usage } : {}),
      ...base,
    };
  }
  return undefined;
}

/** Where the key comes from, as Claude Code names it; a cloud's own credentials are no API key ('none'). */
export function apiKeySource(agent: Pick<AgentOptions, 'client' | 'env'>): string {
  const via = agent.client.describe?.();
  if (via && via.provider !== 'Anthropic API') return 'none';
  if (agent.env.ANTHROPIC_API_KEY) return 'ANTHROPIC_API_KEY';
  if (agent.env.ANTHROPIC_AUTH_TOKEN) return 'ANTHROPIC_AUTH_TOKEN';
  return via?.credentials.startsWith('apiKeyHelper') ? 'apiKeyHelper' : 'none';
}

/** Claude Code's assistant message for an API error response, before the result. */
export function apiErrorMessage(api: NonNullable<RunState['apiError']>, sessionId: string): Line {
  const text = apiErrorText(api);
  return {
    type: 'assistant',
    message: {
      id: randomUuid(),
      type: 'message',
      role: 'assistant',
      model: '<synthetic>',
      content: [{ type: 'text', text }],
      stop_reason: 'stop_sequence',
      stop_sequence: '',
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
    parent_tool_use_id: null,
    session_id: sessionId,
    uuid: randomUuid(),
    timestamp: new Date().toISOString(),
    error: apiErrorKind(api.status, text),
    is_api_error_message: true,
    api_error_status: api.status,
    ...(api.type ? { api_error_type: api.type } : {}),
  };
}
