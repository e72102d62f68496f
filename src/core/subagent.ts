/**
 * A sub-agent run (the Agent tool): the same loop, with its own conversation, system prompt, tool
 * set and read state, on the session's client, rules, hooks and person. Every call it makes passes
 * the same gates; its cost counts toward the session's. Only its final message goes back. Its
 * definition may add tools (its MCP servers'), hooks and allow rules that hold for its run only.
 */
import { addUsage, emptyUsage } from '../base/usage.js';
import type { Hooks } from '../hooks/types.js';
import { ReadState } from '../base/read-state.js';
import { isDeferred, TOOL_SEARCH } from '../tools/tool-search/mode.js';
import type { SubagentResult, SubagentSpec, Tool } from '../base/tool.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../base/events.js';
import { appendUser } from '../base/conversation.js';
import { randomUuid } from '../base/ids.js';
import { TaskNotices } from './task-notices.js';
import { hookEvents } from './loop-hooks.js';
import { PERSON_TOOLS } from '../tools/registry.js';

const NOT_FOR_SUBAGENTS = new Set(['Agent', ...PERSON_TOOLS]);

/**
 * The tools a sub-agent gets from the session's, by name (`Bash(git *)` counts as Bash), with the
 * tools of the MCP servers it names whatever its list says, then its own tools; never Agent, nor the
 * tools only the person answers (a sub-agent's questions and plans would not reach them).
 */
export function subagentTools(all: readonly Tool[], spec: Pick<SubagentSpec, 'toolNames' | 'disallowedTools' | 'mcpServers' | 'extraTools'>): Tool[] {
  const bare = (n: string) => n.replace(/\(.*$/, '').trim();
  const wanted = spec.toolNames?.map(bare);
  const banned = new Set((spec.disallowedTools ?? []).map(bare));
  const named = (t: Tool, names: Iterable<string>) => [...names].some((n) => n === t.name || t.aliases?.includes(n) || mcpNameCovers(n, t.name));
  const servers = (spec.mcpServers ?? []).map((s) => `mcp__${s}`);
  const own = (spec.extraTools ?? []).filter((t) => !named(t, banned));
  const ownNames = new Set(own.map((t) => t.name));
  const inherited = all.filter(
    (t) => !NOT_FOR_SUBAGENTS.has(t.name) && !ownNames.has(t.name) && (!wanted || named(t, wanted) || named(t, servers)) && !named(t, banned),
  );
  const out = [...inherited, ...own];
  // MCP tools that wait for ToolSearch bring it along.
  const search = all.find((t) => t.name === TOOL_SEARCH);
  if (search && !banned.has(TOOL_SEARCH) && out.some(isDeferred) && !out.some((t) => t.name === TOOL_SEARCH)) out.push(search);
  return out;
}

/** `mcp__github` and `mcp__github__*` name every tool of that server; `mcp__*` every MCP tool. */
function mcpNameCovers(pattern: string, tool: string): boolean {
  if (!pattern.startsWith('mcp__') || !tool.startsWith('mcp__')) return false;
  if (pattern === 'mcp__*') return true;
  const server = pattern.replace(/__\*$/, '');
  return /^mcp__[^_]/.test(server) && !server.slice(5).includes('__') && tool.startsWith(`${server}__`);
}

/** The loop a sub-agent runs (agent-loop.ts's runAgent, handed in by its caller: the loop is what starts sub-agents). */
export type AgentLoop = (messages: ApiMessage[], opts: AgentOptions) => AsyncGenerator<AgentEvent, void>;

export async function runSubagent(
  parent: AgentOptions,
  spec: SubagentSpec,
  signal: AbortSignal,
  onEvent: (ev: AgentEvent) => void,
  runAgent: AgentLoop,
): Promise<SubagentResult> {
  const agentId = randomUuid().slice(0, 8);
  const warnings = [...(spec.warnings ?? [])];
  const hooks = ownHooks(parent.hooks, spec, warnings);
  const child: AgentOptions = {
    ...parent,
    model: spec.model ?? parent.model,
    effort: spec.effort ?? parent.effort,
    tools: subagentTools(parent.tools, spec),
    system: spec.system,
    // Its own record of the instruction files it was given; Explore and Plan get the managed ones only.
    ...(parent.instructions ? { instructions: parent.instructions.forSubagent(spec.omitInstructions === true) } : {}),
    state: { cwd: spec.cwd ?? parent.state.cwd, readState: new ReadState(), ...(spec.allow?.length ? { turnAllow: [...spec.allow] } : {}) },
    // Its own mode when its definition sets one; otherwise the session's, live (Shift+Tab applies).
    permission:
      spec.permissionMode && parent.permission.mode !== 'bypassPermissions' ? { mode: spec.permissionMode, rules: parent.permission.rules } : parent.permission,
    hooks: { ...hooks, stop: undefined },
    // Whoever answers a permission request learns which sub-agent asks.
    askUser: (request, s) => parent.askUser({ ...request, agentId }, s),
    maxTurns: spec.maxTurns,
    seenUrls: new Set(parent.seenUrls),
    // Its own background work reports to it, and it waits for that work before it reports.
    taskNotices: new TaskNotices(),
    waitForBackground: true,
    signal,
  };
  if (hooks.subagentStop) {
    child.hooks.stop = (info, s) =>
      hooks.subagentStop!({ agentId, agentType: spec.agentType, lastAssistantMessage: info.lastAssistantMessage, stopHookActive: info.stopHookActive }, s);
  }
  for (const message of warnings) onEvent({ type: 'warning', message });
  const result: SubagentResult = { agentId, text: '', reason: 'completed', turns: 0, toolCalls: 0, usage: emptyUsage() };
  const first: ApiMessage[] = [{ role: 'user', content: firstMessage(spec) }];
  const started = await hooks.subagentStart?.({ agentId, agentType: spec.agentType }, signal).catch(() => undefined);
  if (started?.additionalContext) appendUser(first, `SubagentStart hook context: ${started.additionalContext}`);
  for (const ev of hookEvents(hooks)) onEvent(ev);
  for await (const ev of runAgent(first, child)) {
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
  if (child.state.structuredOutput !== undefined) result.structuredOutput = child.state.structuredOutput;
  return result;
}

/** The session's hook gate, with the agent's own groups added for this run (its `Stop` hooks fire as SubagentStop). */
function ownHooks(session: Hooks, spec: SubagentSpec, warnings: string[]): Hooks {
  if (!spec.hooks?.length) return session;
  const groups = spec.hooks.map((g) => (g.event === 'Stop' ? { ...g, event: 'SubagentStop' as const } : g));
  const scoped = session.withGroups?.(groups);
  if (!scoped) warnings.push(`agent ${spec.agentType}: its hooks do not run, as hooks are turned off in this session`);
  return scoped ?? session;
}

/** Its prompt, after the texts it preloads. */
function firstMessage(spec: SubagentSpec): string | ContentBlock[] {
  if (!spec.context?.length) return spec.prompt;
  return [...spec.context.map((text) => ({ type: 'text' as const, text })), { type: 'text' as const, text: spec.prompt }];
}
