/**
 * What opens a session, the same in print mode and in the app: Setup hooks (--init, --init-only's
 * trigger, --maintenance), InstructionsLoaded hooks (one per instruction file loaded), then SessionStart hooks, then, for a new conversation, the skills of the
 * agent the session runs as (--agent). Their text joins the conversation; the warnings are returned.
 */
import { appendUser } from '../../base/conversation.js';
import { hookRecord } from '../instruction-touches.js';
import type { LoadedInstructions } from '../../hooks/types.js';
import type { ApiMessage } from '../../base/events.js';
import { inlineBashRunner } from '../inline-bash.js';
import { mainAgentSkills } from './main-agent.js';
import type { CliOptions } from './options.js';
import type { Setup } from './session-setup.js';

export interface OpenedSession {
  warnings: string[];
  /** A SessionStart hook's `sessionTitle`: the session's name. */
  title?: string;
  /** A SessionStart hook's `initialUserMessage`: print mode's first prompt (the app ignores it, as Claude Code does). */
  initialUserMessage?: string;
}

export async function openSession(setup: Setup, opts: CliOptions, messages: ApiMessage[], signal: AbortSignal): Promise<OpenedSession> {
  const agent = setup.options;
  const fresh = messages.length === 0;
  const setupHooks = opts.setup ? await agent.hooks.setup?.({ trigger: opts.setup }, signal).catch(() => undefined) : undefined;
  if (setupHooks?.additionalContext) appendUser(messages, setupHooks.additionalContext);
  if (!opts.bare && !opts.safeMode) await agent.hooks.instructionsLoaded?.(() => loadedInstructions(setup), signal).catch(() => undefined);
  const started = await agent.hooks.sessionStart?.({ source: fresh ? 'startup' : 'resume', model: agent.model }, signal).catch(() => undefined);
  if (started?.additionalContext) appendUser(messages, started.additionalContext);
  const title = {
    ...(started?.sessionTitle ? { title: started.sessionTitle } : {}),
    ...(started?.initialUserMessage ? { initialUserMessage: started.initialUserMessage } : {}),
  };
  if (!fresh) return { warnings: [], ...title };
  const run = inlineBashRunner({ ...agent, signal });
  const skills = await mainAgentSkills(setup.agent, { projectRoot: setup.cwd, configDir: setup.configDir, sessionId: agent.sessionId }, run);
  if (skills.text) appendUser(messages, skills.text);
  return { warnings: skills.warnings, ...title };
}

/** The instruction files the session starts with, for InstructionsLoaded hooks (auto memory is not one of them). */
function loadedInstructions(setup: Setup): LoadedInstructions[] {
  return (setup.instructions?.files() ?? []).flatMap((f) => hookRecord(f, 'session_start'));
}
