import type { Usage } from '../base/usage.js';
import type { HookGroup } from '../base/hook-config.js';
import type { ElicitationHookAnswer, ElicitationHookInfo, ElicitationResultHookInfo } from './elicitation.js';
import type { WorktreeHooks } from '../base/worktree-hooked.js';

/**
 * The hook gate's interface, as the runner sees it. The settings-driven implementation lives in
 * src/hooks/; `noHooks` is used when no hooks are configured (and in unit tests).
 */
export interface ToolHookCall {
  toolName: string;
  toolInput: unknown;
  toolUseId: string;
}

/** What PreToolUse hooks decided, merged (deny > defer > ask > allow). */
export type PreToolUseOutcome =
  | {
      kind: 'continue';
      /** An explicit decision from a hook, if any. allow does not bypass deny/ask rules. */
      decision?: 'allow' | 'ask' | 'deny' | 'defer';
      reason?: string;
      /** A hook's replacement input (parsed and validated again by the runner). */
      updatedInput?: unknown;
      /** Which hook decided or rewrote, for the gate trace. */
      hookName?: string;
      /** Text added next to the tool result for the model. */
      additionalContext?: string;
    }
  /** `continue: false`: stop the whole run after this call. */
  | { kind: 'stop'; reason: string; hookName?: string };

export interface PostToolUseOutcome {
  /** Text for the model, appended to the tool result (exit 2 stderr, decision block reason, additionalContext). */
  additionalContext?: string;
  /** `updatedToolOutput` (`updatedMCPToolOutput` for an MCP tool): what the model reads instead of the tool's result. */
  updatedOutput?: { content: ToolResultContentLike; hookName: string };
  /** `continue: false`. */
  stop?: { reason: string };
}

/** The worktree members (worktreeCreate, worktreeRemove, handles) are WorktreeHooks' (base/worktree-hooked.ts). */
export interface Hooks extends WorktreeHooks {
  preToolUse(call: ToolHookCall, signal: AbortSignal): Promise<PreToolUseOutcome>;
  postToolUse(call: ToolHookCall & { toolResponse: unknown; durationMs: number }, signal: AbortSignal): Promise<PostToolUseOutcome>;
  postToolUseFailure(call: ToolHookCall & { error: string; isInterrupt: boolean; durationMs: number }, signal: AbortSignal): Promise<PostToolUseOutcome>;
  /** A permission prompt would be shown; a hook may answer it. Undefined = no answer. */
  permissionRequest?(
    call: ToolHookCall & { suggestions: string[] },
    signal: AbortSignal,
  ): Promise<{ behavior: 'allow' | 'deny'; message?: string; updatedInput?: unknown; updatedPermissions?: unknown[]; interrupt?: boolean } | undefined>;
  /** UserPromptSubmit: block the prompt or add context. */
  userPromptSubmit?(prompt: string, signal: AbortSignal): Promise<{ block?: string; additionalContext?: string; stop?: string; sessionTitle?: string }>;
  /** Stop: a hook may force the model to go on (`block` reason goes to the model). */
  stop?(info: StopInfo, signal: AbortSignal): Promise<{ block?: string }>;
  /** Messages for the person (non-blocking errors, systemMessage). Drained by the loop into warnings. */
  drainNotices?(): string[];
  /** What prompt and agent hooks spent on the model since the last call; the loop counts it as the session's. */
  drainUsage?(): HookUsage[];

  /**
   * SessionStart (matcher: source). Plain stdout and additionalContext become context for the model;
   * `initialUserMessage` is the session's first prompt (print mode only, as in Claude Code).
   */
  sessionStart?(info: SessionStartInfo, signal: AbortSignal): Promise<{ additionalContext?: string; sessionTitle?: string; initialUserMessage?: string }>;
  /** SessionEnd (matcher: reason). Cannot block; all its hooks share a 1.5 s budget. */
  sessionEnd?(info: { reason: SessionEndReason }, signal?: AbortSignal): Promise<void>;
  /** Notification (matcher: notification type), e.g. a permission prompt waiting. Cannot block. */
  notification?(info: NotificationInfo, signal: AbortSignal): Promise<void>;
  /** PreCompact (matcher: trigger). `block` stops the compaction. */
  preCompact?(info: { trigger: 'manual' | 'auto'; customInstructions?: string }, signal: AbortSignal): Promise<{ block?: string }>;
  /** SubagentStop (matcher: agent type). `block` keeps the sub-agent going, with the reason as its next input. */
  subagentStop?(info: SubagentStopInfo, signal: AbortSignal): Promise<{ block?: string }>;
  /**
   * The same gate with these matcher groups added (a sub-agent's own hooks, for its run); undefined
   * when the settings' hook policy (disableAllHooks, allowManagedHooksOnly) leaves them out.
   */
  withGroups?(groups: HookGroup[]): Hooks | undefined;
  /** SubagentStart (matcher: agent type), before its first request; `additionalContext` is given to the sub-agent. */
  subagentStart?(info: { agentId: string; agentType: string }, signal: AbortSignal): Promise<{ additionalContext?: string }>;
  /** PostToolBatch: every call of a turn answered, before the next request. `stop` ends the run; `additionalContext` joins the results. */
  postToolBatch?(calls: ToolBatchCall[], signal: AbortSignal): Promise<{ stop?: string; additionalContext?: string }>;
  /** PostCompact (matcher: trigger), after a compaction. Cannot block. */
  postCompact?(info: { trigger: 'manual' | 'auto'; summary: string }, signal: AbortSignal): Promise<void>;
  /** StopFailure (matcher: error type): the turn ended on an API error. Its output is ignored. */
  stopFailure?(info: { error: StopFailureType; errorDetails: string; lastAssistantMessage?: string }): Promise<void>;
  /** CwdChanged (no matcher): the session's folder moved (a Bash `cd`). Cannot block; CLAUDE_ENV_FILE is set. */
  cwdChanged?(info: { previousCwd: string; cwd: string }, signal: AbortSignal): Promise<void>;
  /** InstructionsLoaded (matcher: load reason), once per memory file (CLAUDE.md…) the session loaded; the files are listed only when a hook listens. Cannot block. */
  instructionsLoaded?(files: () => LoadedInstructions[], signal: AbortSignal): Promise<void>;
  /** ConfigChange (matcher: the settings source): a settings file changed on disk; `block` keeps the old settings. */
  configChange?(info: { source: ConfigSource; filePath: string }, signal: AbortSignal): Promise<{ block?: string }>;
  /** Setup (matcher: init or maintenance), on --init, --init-only and --maintenance; `additionalContext` joins the session. */
  setup?(info: { trigger: 'init' | 'maintenance' }, signal: AbortSignal): Promise<{ additionalContext?: string }>;
  /**
   * UserPromptExpansion (matcher: command name): a typed slash command is about to expand into a prompt.
   * `block` (exit 2, `decision: "block"`) or `stop` (`continue: false`) keeps it from expanding; plain
   * stdout and additionalContext go to the model with the expanded prompt.
   */
  userPromptExpansion?(info: PromptExpansion, signal: AbortSignal): Promise<{ block?: string; stop?: string; additionalContext?: string }>;
  /**
   * DirectoryAdded (matcher: source): /add-dir opened a folder. Cannot block. Output goes to the debug
   * log only; a `systemMessage` waits for the next prompt as context (takeContext). Resolves to the
   * number of hooks that failed.
   */
  directoryAdded?(info: { directory: string; source: 'slash_command' }): Promise<number>;
  /** Context hooks left for the model's next prompt (DirectoryAdded's systemMessage); taken once. */
  takeContext?(): string | undefined;
  /** Elicitation (matcher: MCP server name): a hook may answer a server's request for input (exit 2 declines); undefined when none did. */
  elicitation?(info: ElicitationHookInfo, signal: AbortSignal): Promise<ElicitationHookAnswer | undefined>;
  /** ElicitationResult (matcher: MCP server name): the answer before it goes back; a hook may change it (exit 2 declines). */
  elicitationResult?(info: ElicitationResultHookInfo, signal: AbortSignal): Promise<ElicitationHookAnswer | undefined>;
}

/** One model request a hook made (an agent hook's sub-agent): the fields of the loop's `usage` event. */
export interface HookUsage {
  usage: Usage;
  costUsd: number;
  model: string;
  apiDurationMs: number;
}

/** A slash command's expansion, as UserPromptExpansion hooks see it. */
export interface PromptExpansion {
  expansionType: 'slash_command' | 'mcp_prompt';
  /** Without the leading `/`. */
  commandName: string;
  commandArgs: string;
  /** Where the command comes from: `projectSettings`, `userSettings`, `plugin`, `builtin`, `mcp`. */
  commandSource: string;
  /** What was typed (`/name args`). */
  prompt: string;
}

export interface ToolBatchCall extends ToolHookCall {
  /** The tool_result's content, as text. */
  toolResponse: string;
}

/** A tool result's content as a hook may give it: text, or text and image blocks. */
export type ToolResultContentLike =
  | string
  | Array<{ type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }>;

export interface LoadedInstructions {
  filePath: string;
  memoryType: 'User' | 'Project' | 'Local' | 'Managed';
  loadReason: 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact';
  /** A rule's `paths:` patterns. */
  globs?: string[];
  /** The file whose touch brought it (given on touch). */
  triggerFilePath?: string;
  /** The file that imports it. */
  parentFilePath?: string;
}

export type ConfigSource = 'user_settings' | 'project_settings' | 'local_settings' | 'policy_settings';

export type StopFailureType = 'rate_limit' | 'authentication_failed' | 'invalid_request' | 'server_error' | 'unknown';

/** A hook starting and finishing, as stream-json reports them with --include-hook-events. */
export type HookLifecycleEvent =
  | { subtype: 'hook_started'; hook_id: string; hook_name: string; hook_event: string }
  | {
      subtype: 'hook_response';
      hook_id: string;
      hook_name: string;
      hook_event: string;
      output: string;
      stdout: string;
      stderr: string;
      exit_code?: number;
      outcome: 'success' | 'error' | 'cancelled';
    };

export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';
export type SessionEndReason = 'clear' | 'resume' | 'logout' | 'prompt_input_exit' | 'other';

export interface SessionStartInfo {
  source: SessionStartSource;
  model?: string;
}

export interface NotificationInfo {
  message: string;
  title?: string;
  /** `permission_prompt`, `idle_prompt`, … */
  notificationType: string;
}

export interface StopInfo {
  lastAssistantMessage: string;
  stopHookActive: boolean;
  /** What still runs in the background as the model stops (`background_tasks`, as Claude Code lists them); the loop fills it in. */
  backgroundTasks?: Array<Record<string, unknown>>;
}

export interface SubagentStopInfo {
  agentId: string;
  agentType: string;
  agentTranscriptPath?: string;
  lastAssistantMessage: string;
  stopHookActive: boolean;
}

export const noHooks: Hooks = {
  async preToolUse() {
    return { kind: 'continue' };
  },
  async postToolUse() {
    return {};
  },
  async postToolUseFailure() {
    return {};
  },
};
