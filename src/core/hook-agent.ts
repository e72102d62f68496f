/**
 * The sub-agent of a `type: "agent"` hook (hooks/run-agent.ts): a run of the loop on the session's
 * client, rules and permission mode, with only the tools the hook allows (read-only ones) and a
 * StructuredOutput tool for its verdict. Its calls pass the same gates; a call that would need a
 * person is refused (a hook cannot ask). It fires no Stop, SubagentStart or SubagentStop hooks, and
 * its gate has no agent hooks, so a hook never starts itself again.
 */
import type { HookAgentAnswer, HookAgentRequest, HookAgentRunner } from '../hooks/run-agent.js';
import { AGENT_HOOK_VERDICT_SCHEMA } from '../hooks/run-agent.js';
import type { HookUsage } from '../hooks/types.js';
import { parseRule } from '../base/rule-parse.js';
import type { AskUser } from '../base/permission-types.js';
import { mcpSdk } from '../mcp/sdk-lib.js';
import { structuredOutputTool } from '../tools/structured-output/index.js';
import type { AgentOptions } from './agent-options.js';
import { resolveModel } from '../base/models.js';
import { runAgent } from './agent-loop.js';
import { runSubagent } from './subagent.js';

/** The agent type hook sub-agents run as (in traces and warnings). */
export const HOOK_AGENT_TYPE = 'hook-verifier';

const refuse: AskUser = async (request) => ({
  behavior: 'deny',
  message: `${request.toolName} needs permission (${request.reason}), and a hook's check cannot ask for it: decide from what you can read without it`,
  answeredBy: "no one to ask in a hook's check",
  nobodyAsked: true,
});

/**
 * A runner for agent hooks, on the session's options once they exist. The sub-agent may also read
 * the session's transcript (the hook input's `transcript_path`), outside the project as it is.
 */
export function hookAgentRunner(session: () => Omit<AgentOptions, 'signal' | 'askUser'> | undefined, transcriptPath?: string): HookAgentRunner {
  const readTranscript = transcriptPath ? [parseRule(`Read(/${transcriptPath})`, 'session')] : [];
  return async (r: HookAgentRequest): Promise<HookAgentAnswer> => {
    const base = session();
    if (!base) throw new Error('the session is not ready yet');
    const hooks = { ...r.hooks, stop: undefined, subagentStart: undefined, subagentStop: undefined };
    const rules = base.permission.rules;
    const permission = { ...base.permission, rules: { ...rules, allow: [...rules.allow, ...readTranscript] } };
    const parent: AgentOptions = { ...base, hooks, permission, askUser: refuse, signal: r.signal, thinkingBudget: undefined };
    const usage: HookUsage[] = [];
    const warnings: string[] = [];
    const cwd = base.state.cwd;
    const result = await runSubagent(
      parent,
      {
        agentType: HOOK_AGENT_TYPE,
        prompt: r.prompt,
        system: [{ type: 'text', text: `${r.system}\n\nThe project's working directory is ${cwd}; give tools absolute paths.` }],
        toolNames: r.toolNames,
        extraTools: [structuredOutputTool(AGENT_HOOK_VERDICT_SCHEMA, () => mcpSdk().then((sdk) => sdk.Ajv))],
        model: resolveModel(r.model) ?? base.smallModel,
        maxTurns: r.maxTurns,
      },
      r.signal,
      (ev) => {
        if (ev.type === 'usage') usage.push({ usage: ev.usage, costUsd: ev.costUsd, model: ev.model, apiDurationMs: ev.apiDurationMs });
        else if (ev.type === 'warning') warnings.push(ev.message);
      },
      runAgent,
    );
    const error = result.reason === 'completed' ? undefined : (result.error ?? `it ended with ${result.reason}`);
    return { text: result.text, ...(result.structuredOutput ? { structured: result.structuredOutput } : {}), ...(error ? { error } : {}), usage, warnings };
  };
}
