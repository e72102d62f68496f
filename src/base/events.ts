/**
 * Everything the core tells its front ends. The Ink app, print mode and tests consume only these.
 * Contract: events arrive in the order things happened; every `tool_request` is followed, sooner or
 * later, by exactly one `tool_result` with the same `toolUseId`.
 */
import type { Usage } from './usage.js';

/** Text or image content as sent back to the model in a `tool_result`. */
export type ToolResultContent =
  | string
  | Array<
      | { type: 'text'; text: string }
      | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
      /** A deferred tool whose definition the API loads here (ToolSearch's results; nothing else in the same result). */
      | { type: 'tool_reference'; tool_name: string }
    >;

/** What the model receives for one call. `isError` marks refusals and failures. */
export interface ModelResult {
  content: ToolResultContent;
  isError?: boolean;
}

/** Data for the person (UI and logs); never sent to the model. Kept plain so print mode needs no React. */
export interface DisplayData {
  /** Short one-line outcome, e.g. "Read 120 lines". */
  summary?: string;
  /** Unified diff text for edits and writes. */
  diff?: string;
  /** Tail of output (Bash) or a preview. */
  preview?: string;
  [key: string]: unknown;
}

/** Background work (a Bash command, a sub-agent) as the session tells of it: base/tasks.ts has how a tool reports it. */
export type TaskType = 'local_bash' | 'local_agent';
export type NoticeStatus = 'completed' | 'failed' | 'stopped';

export interface TaskNotice {
  taskId: string;
  /** The call that started the task. */
  toolUseId?: string;
  taskType: TaskType;
  status: NoticeStatus;
  /** One line: what ended and how ("Background command "npm test" failed with exit code 1"). */
  summary: string;
  outputFile: string;
  /** An agent's report, handed to the model with the notice. */
  result?: string;
  usage?: { totalTokens: number; toolUses: number; durationMs: number };
  /** Events of the task to count as the session's when the notice is delivered (a sub-agent's cost). */
  events?: AgentEvent[];
  /** The model stopped the task itself and knows: front ends hear of it, the conversation does not. */
  silent?: boolean;
}

/** How far a background agent is: sent each time it runs a tool (front ends only, never the model). */
export interface TaskProgress {
  taskId: string;
  toolUseId?: string;
  description: string;
  usage: { totalTokens: number; toolUses: number; durationMs: number };
  lastToolName?: string;
  subagentType?: string;
}

export type GateName = 'find' | 'parse' | 'validate' | 'hooks' | 'permission' | 'execute' | 'map' | 'post_hooks';

export type GateVerdict = 'passed' | 'refused' | 'rewritten' | 'allowed' | 'denied' | 'asked' | 'failed' | 'aborted' | 'skipped' | 'deferred';

export interface GateRecord {
  gate: GateName;
  verdict: GateVerdict;
  durationMs: number;
  /** Who decided and why: "deny rule Bash(rm *) from projectSettings", "hook check.sh", "answer: no". */
  detail?: string;
}

export type GateTrace = GateRecord[];

/** A raw Messages API message as we keep it in the conversation. */
export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export type ContentBlock =
  | { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: ModelResult['content'];
      is_error?: boolean;
      cache_control?: { type: 'ephemeral' };
    }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  /** A tool the API runs itself (web_search): in the answer to a request that offered one, never in the conversation. */
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  /** What the API's web_search found: a list of results, or an error object. */
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

/** A block of the system prompt. */
export interface SystemBlock {
  type: 'text';
  text: string;
  cache_control?: { type: 'ephemeral' };
}

export type AgentEvent =
  /**
   * A prompt is about to join the conversation (nothing of it is in `messages` yet): a rewind point.
   * `checkpoint`: the file checkpoint it starts (absent when checkpointing is off).
   */
  | {
      type: 'prompt_checkpoint';
      prompt: string;
      checkpoint?: number;
      /** The start's instruction files given with this prompt, for the transcript to record (`changed`: given again after a resume). */
      instructions?: { files: Array<{ path: string; type: 'Managed' | 'User' | 'Project' | 'Local' | 'AutoMem'; content: string }>; changed?: true };
    }
  | { type: 'turn_start'; turn: number }
  /** A raw SSE event from the API, for --include-partial-messages. */
  | { type: 'stream_event'; event: unknown }
  /** `restart`: a retried request said something else; `text` replaces the text of this message shown so far. */
  | { type: 'assistant_delta'; text: string; restart?: boolean }
  | { type: 'thinking_delta'; text: string }
  /** The whole assistant message once its stream finished. */
  | { type: 'assistant_message'; message: ApiMessage & { id: string; model: string; stop_reason: string | null; usage?: Usage } }
  | { type: 'tool_request'; toolUseId: string; name: string; input: unknown; summary: string }
  | { type: 'gate'; toolUseId: string; record: GateRecord }
  | { type: 'tool_progress'; toolUseId: string; message?: string; data?: Record<string, unknown> }
  | {
      type: 'tool_result';
      toolUseId: string;
      name: string;
      input: unknown;
      result: ModelResult;
      trace: GateTrace;
      display?: DisplayData;
      durationMs: number;
    }
  /** The user message carrying this turn's tool results, as appended to the conversation. */
  | { type: 'tool_results_message'; message: ApiMessage }
  | {
      type: 'permission_denied';
      toolUseId: string;
      name: string;
      input: unknown;
      reason: string;
      /** Nobody could be asked (print mode, dontAsk mode, a hook's check): what was missing is a rule or a person, not a yes. */
      unasked?: boolean;
      /** When an allow rule could let the call run: the decision's suggested rules (maybe none). */
      allowWith?: string[];
    }
  | { type: 'usage'; usage: Usage; costUsd: number; model: string; apiDurationMs: number }
  | { type: 'retry'; attempt: number; maxRetries: number; delayMs: number; status?: number; error: string }
  | { type: 'warning'; message: string }
  /** The conversation was replaced by a summary; `messages` is the conversation now. */
  | { type: 'compact'; trigger: 'manual' | 'auto'; preTokens: number; summary: string; messages: ApiMessage[] }
  /** `api`: the API's error response that ended the run (its HTTP status, type and message). */
  | { type: 'error'; message: string; api?: { status: number; type?: string; message: string } }
  /** A hook named the session (UserPromptSubmit's `sessionTitle`). */
  | { type: 'session_title'; title: string }
  /** A tool started background work (a Bash command, a sub-agent). */
  | { type: 'task_started'; taskId: string; toolUseId?: string; taskType: TaskType; description: string }
  /** A background agent ran a tool: how far it is (Claude Code's `task_progress`). */
  | { type: 'task_progress'; progress: TaskProgress }
  /** A background task ended; `text` is what went into the conversation (none when the model already knew). */
  | { type: 'task_notification'; notice: TaskNotice; text?: string }
  | { type: 'turn_end'; stopReason: string | null }
  | {
      type: 'done';
      reason: 'completed' | 'max_turns' | 'aborted' | 'error' | 'hook_stopped' | 'tool_deferred' | 'tool_deferred_unavailable';
      numTurns: number;
      finalText: string;
      error?: string;
      /** The call a PreToolUse hook deferred (print mode): it runs when the session is resumed. */
      deferredToolUse?: DeferredToolUse;
    };

export interface DeferredToolUse {
  id: string;
  name: string;
  input: unknown;
}
