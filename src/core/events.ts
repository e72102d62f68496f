/**
 * Everything the core tells its front ends. The Ink app, print mode and tests consume only these.
 * Contract: events arrive in the order things happened; every `tool_request` is followed, sooner or
 * later, by exactly one `tool_result` with the same `toolUseId`.
 */
import type { DisplayData, ModelResult } from '../tools/tool.js';
import type { Usage } from '../api/usage.js';
import type { TaskNotice, TaskProgress, TaskType } from './task-notices.js';

export type GateName = 'find' | 'parse' | 'validate' | 'hooks' | 'permission' | 'execute' | 'map' | 'post_hooks';

export type GateVerdict =
  | 'passed'
  | 'refused'
  | 'rewritten'
  | 'allowed'
  | 'denied'
  | 'asked'
  | 'failed'
  | 'aborted'
  | 'skipped'
  | 'deferred';

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
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export type AgentEvent =
  /**
   * A prompt is about to join the conversation (nothing of it is in `messages` yet): a rewind point.
   * `checkpoint`: the file checkpoint it starts (absent when checkpointing is off).
   */
  | { type: 'prompt_checkpoint'; prompt: string; checkpoint?: number }
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
  | { type: 'error'; message: string }
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
