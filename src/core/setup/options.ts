/**
 * The options a session starts with, as the command line gives them (cli/options.ts reads them from
 * argv): print mode and the interactive app set their sessions up from the same value.
 */
import type { PermissionMode } from '../../base/permission-modes.js';

export interface CliOptions {
  print: boolean;
  prompt?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  inputFormat: 'text' | 'stream-json';
  includePartialMessages: boolean;
  /** --include-hook-events: stream-json reports each hook starting and finishing. */
  includeHookEvents: boolean;
  verbose: boolean;
  /** --include-gate-traces: stream-json carries a gate_trace line before each tool result. */
  includeGateTraces?: boolean;
  /** --max-thinking-tokens / --thinking: the thinking budget (0: off); undefined leaves it to the environment and settings. */
  thinkingBudget?: number;
  /** --betas: beta headers asked for by the command line. */
  betas?: string[];
  /** Notes for stderr about flags taken in a weaker form (`--permission-mode auto`). */
  notes?: string[];
  maxTurns?: number;
  maxBudgetUsd?: number;
  model?: string;
  fallbackModel?: string;
  /** --effort: low | medium | high | xhigh | max, or auto (the model's default). */
  effort?: string;
  allowedTools: string[];
  disallowedTools: string[];
  tools?: string[];
  permissionMode?: PermissionMode;
  dangerouslySkipPermissions: boolean;
  allowDangerouslySkipPermissions: boolean;
  systemPrompt?: string;
  /**
   * Not a flag: `systemPrompt` is only the Agent SDK's short default (the host gave no prompt of its
   * own), so an --agent's prompt follows it rather than giving way to it, as in Claude Code.
   */
  systemPromptIsSdkDefault?: boolean;
  appendSystemPrompt?: string;
  addDir: string[];
  settings?: string;
  /** Settings an Agent SDK host sent in `initialize` (JSON text): a layer above --settings. */
  hostSettings?: string;
  /** Managed settings an Agent SDK host sent in `initialize` (JSON text): a policy layer. */
  hostManagedSettings?: string;
  /** --resume-session-at: the resumed conversation ends at the message with this uuid (the SDK mode). */
  resumeSessionAt?: string;
  settingSources?: string[];
  /** Not a flag: settings files the person chose, in the app, to go on without while they cannot be read. */
  withoutSettings?: string[];
  continue: boolean;
  resume?: string | true;
  sessionId?: string;
  /** With --continue / --resume: go on under a new session id instead of the resumed one. */
  forkSession: boolean;
  persistSession: boolean;
  bare: boolean;
  /** --safe-mode or CLAUDE_CODE_SAFE_MODE (settings/safe-mode.ts). */
  safeMode: boolean;
  /** --init / --init-only (init) or --maintenance: the Setup hooks run, with this trigger, before the session. */
  setup?: 'init' | 'maintenance';
  /** --init-only: run the Setup hooks and exit. */
  initOnly: boolean;
  /** -d/--debug [filter]: debug lines on stderr (true: every category). */
  debug?: string | true;
  /** --debug-file <path>: debug lines appended to this file instead. */
  debugFile?: string;
  /** --mcp-config: files or JSON text, each with an "mcpServers" object. */
  mcpConfig: string[];
  /** --strict-mcp-config: only the servers of --mcp-config. */
  strictMcpConfig: boolean;
  /** --agents: sub-agent definitions as JSON. */
  agents?: string;
  /** --agent: run the session as this agent (its prompt, tools and model). */
  agent?: string;
  /** --permission-prompt-tool: the MCP tool that answers permission prompts in print mode. */
  permissionPromptTool?: string;
  /** --replay-user-messages: stream-json echoes each user message read from stdin. */
  replayUserMessages: boolean;
  /** --disable-slash-commands: custom commands, skills and MCP prompts are off. */
  disableSlashCommands: boolean;
  /** -n/--name: a name for the session, kept in its file. */
  name?: string;
  /** --json-schema: the JSON Schema the answer must match (the result's structured_output). */
  jsonSchema?: string;
  /** -w/--worktree [name]: work in a git worktree of its own (true: a generated name). */
  worktree?: string | true;
  /** --plugin-dir <path> (repeatable): plugin folders loaded for this session. */
  pluginDir: string[];
}

/** The interactive app's entry (ui/run-app.tsx), which the command line loads by its path: cli/ does not import ui/. */
/**
 * `firstFrame`: called once the app's first frame is drawn (the interactive mode then saves the app
 * bundle's code cache, and only then changes V8's flags, which would make that cache useless).
 */
export type AppEntry = (opts: CliOptions, info: { version: string; firstFrame?: () => void }) => Promise<number>;
