/**
 * A sub-agent run (the Agent tool): the same loop, with its own conversation, system prompt, tool
 * set and read state, on the session's client, rules, hooks and person. Every call it makes passes
 * the same gates; its cost counts toward the session's. Only its final message goes back.
 */
import { addUsage, emptyUsage, type Usage } from '../api/usage.js';
import type { PermissionMode } from '../permissions/modes.js';
import { ReadState } from '../tools/read-state.js';
import type { Tool } from '../tools/tool.js';
import type { AgentOptions } from './agent-options.js';
import { runAgent } from './agent-loop.js';
import type { AgentEvent } from './events.js';
import { randomUuid } from './ids.js';
import type { Effort } from './models.js';
import type { SystemBlock } from './system-prompt.js';
import { TaskNotices } from './task-notices.js';

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
}

export interface SubagentResult {
  agentId: string;
  text: string;
  reason: Extract<AgentEvent, { type: 'done' }>['reason'];
  error?: string;
  turns: number;
  toolCalls: number;
  usage: Usage;
}

/** The tools a sub-agent gets from the session's, by name (`Bash(git *)` counts as Bash). */
export function subagentTools(all: readonly Tool[], spec: Pick<SubagentSpec, 'toolNames' | 'disallowedTools'>): Tool[] {
  const bare = (n: string) => n.replace(/\(.*$/, '').trim();
  const wanted = spec.toolNames?.map(bare);
  const banned = new Set((spec.disallowedTools ?? []).map(bare));
  const named = (t: Tool, names: Iterable<string>) => [...names].some((n) => n === t.name || t.aliases?.includes(n));
  return all.filter((t) => t.name !== 'Agent' && (!wanted || named(t, wanted)) && !named(t, banned));
}

export async function runSubagent(parent: AgentOptions, spec: SubagentSpec, signal: AbortSignal, onEvent: (ev: AgentEvent) => void): Promise<SubagentResult> {
  const agentId = randomUuid().slice(0, 8);
  const child: AgentOptions = {
    ...parent,
    model: spec.model ?? parent.model,
    effort: spec.effort ?? parent.effort,
    tools: subagentTools(parent.tools, spec),
    system: spec.system,
    state: { cwd: spec.cwd ?? parent.state.cwd, readState: new ReadState() },
    // Its own mode when its definition sets one; otherwise the session's, live (Shift+Tab applies).
    permission: spec.permissionMode && parent.permission.mode !== 'bypassPermissions' ? { mode: spec.permissionMode, rules: parent.permission.rules } : parent.permission,
    hooks: { ...parent.hooks, stop: undefined },
    maxTurns: spec.maxTurns,
    seenUrls: new Set(parent.seenUrls),
    // Its own background work reports to it, and it waits for that work before it reports.
    taskNotices: new TaskNotices(),
    waitForBackground: true,
    signal,
  };
  const hooks = parent.hooks;
  if (hooks.subagentStop) {
    child.hooks.stop = (info, s) => hooks.subagentStop!({ agentId, agentType: spec.agentType, lastAssistantMessage: info.lastAssistantMessage, stopHookActive: info.stopHookActive }, s);
  }
  const result: SubagentResult = { agentId, text: '', reason: 'completed', turns: 0, toolCalls: 0, usage: emptyUsage() };
  for await (const ev of runAgent([{ role: 'user', content: spec.prompt }], child)) {
    if (ev.type === 'usage') result.usage = addUsage(result.usage, ev.usage);
    else if (ev.type === 'tool_request') result.toolCalls++;
    else if (ev.type === 'done') {
      result.text = ev.finalText;
      result.reason = ev.reason;
      result.turns = ev.numTurns;
      if (ev.error) result.error = ev.error;
    }
    onEvent(ev);
  }
  return result;
}
