/**
 * What the loop needs from its caller. Everything that touches the world (the model, the clock of
 * retries, the home directory, the person) is injected here.
 */
import type { ModelClient } from '../api/model-client.js';
import type { Hooks } from '../hooks/types.js';
import type { PermissionMode } from '../base/permission-modes.js';
import type { AskUser, PermissionEffects, PermissionRules } from '../base/permission-types.js';
import type { SessionState, Tool } from '../base/tool.js';
import type { Effort } from '../base/models.js';
import type { FileHistory } from './file-history.js';
import type { SystemBlock } from '../base/events.js';
import type { TaskNotices } from './task-notices.js';
import type { ConversationInstructions } from '../session/memory/session-instructions.js';

export interface AgentOptions {
  client: ModelClient;
  model: string;
  /** Small fast model for WebFetch and summaries. */
  smallModel: string;
  tools: Tool[];
  system: SystemBlock[];
  /** Shared mutable state: cwd and read state; changed only through context changes. */
  state: SessionState;
  projectRoot: string;
  additionalDirs: string[];
  homeDir: string;
  wicketHome: string;
  sessionId: string;
  /** Mutable on purpose: the TUI's Shift+Tab and ExitPlanMode change it between calls. */
  permission: { mode: PermissionMode; rules: PermissionRules };
  hooks: Hooks;
  askUser: AskUser;
  /** Applies a PermissionRequest hook's updatedPermissions and interrupt; undefined: they are ignored with a warning. */
  permissionEffects?: PermissionEffects;
  settings: Record<string, unknown>;
  env: Record<string, string | undefined>;
  /** Tool-use round trips before stopping with max_turns. */
  maxTurns?: number;
  /** false: the provider offers no web search (WebSearch is not offered either). */
  webSearch?: boolean;
  maxTokens?: number;
  /** Extended thinking budget (MAX_THINKING_TOKENS, or settings alwaysThinkingEnabled); off when undefined. */
  thinkingBudget?: number;
  /** The effort level sent as output_config.effort (models that take it); undefined: the model's default. Mutable: /effort. */
  effort?: Effort;
  /** Max concurrency-safe calls running at once (default 10). */
  maxToolConcurrency?: number;
  /** --fallback-model: where requests go when the model stays overloaded (print mode). */
  fallbackModels?: readonly string[];
  /** The output style's name (settings `outputStyle`; its text is in `system`). */
  outputStyle?: string;
  /** A PreToolUse hook's `defer` may park a call and end the run (print mode only). */
  allowDefer?: boolean;
  /** The session's file checkpoints (undefined: checkpointing is off); sub-agents share it. */
  fileHistory?: FileHistory;
  /**
   * The conversation's background tasks: tools report what they start, and the notices of what ended
   * go to the model before its next request. Undefined: background work is never reported.
   */
  taskNotices?: TaskNotices;
  /**
   * A compaction that fails (its request fails, or the reply is not a summary) ends the run as an
   * error instead of going on uncompacted with a warning (print mode, where no one reads warnings).
   */
  strictCompaction?: boolean;
  /** When the model is done while background tasks run, wait for them (print mode, sub-agents). */
  waitForBackground?: boolean;
  /**
   * The instruction files (CLAUDE.md, rules, auto memory): given at the head of the first user
   * message of each request, and on touch after tool results. Undefined: none (--bare, safe mode).
   */
  instructions?: ConversationInstructions;
  /** URLs seen in the conversation (WebFetch allows these); the loop adds to it. */
  seenUrls: Set<string>;
  signal: AbortSignal;
}
