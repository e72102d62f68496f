/**
 * What opens a session, the same in print mode and in the app: Setup hooks (--init, --init-only's
 * trigger, --maintenance), then SessionStart hooks, then, for a new conversation, the skills of the
 * agent the session runs as (--agent). Their text joins the conversation; the warnings are returned.
 */
import { appendUser } from '../core/conversation.js';
import type { ApiMessage } from '../core/events.js';
import { inlineBashRunner } from '../commands/inline-shell.js';
import { mainAgentSkills } from './main-agent.js';
import type { CliOptions } from './options.js';
import type { Setup } from './session-setup.js';

export async function openSession(setup: Setup, opts: CliOptions, messages: ApiMessage[], signal: AbortSignal): Promise<string[]> {
  const agent = setup.options;
  const fresh = messages.length === 0;
  const setupHooks = opts.setup ? await agent.hooks.setup?.({ trigger: opts.setup }, signal).catch(() => undefined) : undefined;
  if (setupHooks?.additionalContext) appendUser(messages, setupHooks.additionalContext);
  const started = await agent.hooks.sessionStart?.({ source: fresh ? 'startup' : 'resume', model: agent.model }, signal).catch(() => undefined);
  if (started?.additionalContext) appendUser(messages, started.additionalContext);
  if (!fresh) return [];
  const run = inlineBashRunner({ ...agent, signal });
  const skills = await mainAgentSkills(setup.agent, { projectRoot: setup.cwd, configDir: setup.configDir, sessionId: agent.sessionId }, run);
  if (skills.text) appendUser(messages, skills.text);
  return skills.warnings;
}
