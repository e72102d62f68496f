/**
 * A sub-agent run as the Agent tool asks the session for one (ToolContext.runSubagent), and what
 * comes back. The session runs it (core/subagent.ts).
 */
import type { AgentEvent, SystemBlock } from './events.js';
import type { HookGroup } from './hook-config.js';
import type { Effort } from './models.js';
import type { PermissionMode } from './permission-modes.js';
import type { ParsedRule } from './rule-parse.js';
import type { Tool } from './tool.js';
import type { Usage } from './usage.js';

export interface SubagentSpec {
  agentType: string;
  prompt: string;
  system: SystemBlock[];
  /** Tool names it may use (undefined: all of the session's); Agent itself is never among them. */
  toolNames?: string[];
  disallowedTools?: string[];
  /** A model id (aliases already resolved); undefined: the session's. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** Its effort level (front matter `effort`); undefined: the session's. */
  effort?: Effort;
  /** Where it starts (its own worktree); undefined: the session's current folder. */
  cwd?: string;
  /** Texts it is given before its prompt, in its first message (skills it preloads). */
  context?: string[];
  /** MCP servers of the session whose tools it keeps, whatever `toolNames` says. */
  mcpServers?: string[];
  /** Tools of its own (its MCP servers'), beside the session's; they replace session tools of the same name. */
  extraTools?: Tool[];
  /** Hook groups that apply to its own calls only; `Stop` groups act as SubagentStop. */
  hooks?: HookGroup[];
  /** Allow rules for its run only (its memory folder), after the session's. */
  allow?: ParsedRule[];
  /** Problems found while starting it, reported as warnings when it starts. */
  warnings?: string[];
}

export interface SubagentResult {
  agentId: string;
  text: string;
  reason: Extract<AgentEvent, { type: 'done' }>['reason'];
  error?: string;
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** What it handed to a StructuredOutput tool of its own, if it did. */
  structuredOutput?: Record<string, unknown>;
}
