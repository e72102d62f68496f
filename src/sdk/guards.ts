/**
 * The SDK host's guards, wired into the session: `can_use_tool` (--permission-prompt-tool stdio),
 * hook callbacks (`initialize.hooks`, asked with `hook_callback`) and in-process MCP servers
 * (`initialize.sdkMcpServers`, reached with `mcp_message`).
 *
 * THIS IS THE PLACE where they are wired. Until each is delivered over the control channel, it
 * fails closed: a call that would ask is refused, and while the host has PreToolUse or
 * PermissionRequest callbacks wicket cannot ask, every tool call is refused, saying why.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { PermissionAnswer } from '../base/permission-types.js';
import type { PreToolUseOutcome } from '../hooks/types.js';
import type { SdkSession } from './session.js';

/** Who answers the permission prompts, as the gate trace names it. */
export const SDK_HOST = 'the Agent SDK host (can_use_tool)';

/** Hook events whose callbacks can stop a tool call: skipping them would let a call run that the host would stop. */
const GUARDING_EVENTS = ['PreToolUse', 'PermissionRequest'];

export interface WiredGuards {
  /** For the initialize answer: whether the host's hook callbacks are registered (absent when it sent none). */
  hooksApplied?: boolean;
  /** Problems to say on stderr, once. */
  notes: string[];
}

export function wireSdkGuards(session: SdkSession, agent: AgentOptions): WiredGuards {
  const notes: string[] = [];
  if (session.permissionPromptStdio) {
    agent.askUser = async (): Promise<PermissionAnswer> => ({
      behavior: 'deny',
      message:
        'this call needs permission, and the Agent SDK host (--permission-prompt-tool stdio) cannot be asked yet in this version of wicket; allow it with a rule (allowedTools) or a permission mode',
      answeredBy: SDK_HOST,
      nobodyAsked: true,
    });
  }
  const hooks = session.hooks;
  const events = Object.keys(hooks);
  if (!events.length) return { notes };
  const guarding = events.filter((e) => GUARDING_EVENTS.includes(e));
  if (guarding.length) {
    const reason = `the Agent SDK host registered ${guarding.join(' and ')} hook callbacks, which this version of wicket cannot deliver: no tool runs unchecked`;
    const deny = async (): Promise<PreToolUseOutcome> => ({ kind: 'continue', decision: 'deny', reason, hookName: 'SDK hook callbacks (not delivered)' });
    // The settings' hooks stay as they are (methods bound to their own object); PreToolUse refuses.
    agent.hooks = new Proxy(agent.hooks, {
      get(target, prop) {
        if (prop === 'preToolUse') return deny;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    notes.push(`every tool call is refused: ${reason}`);
  }
  const other = events.filter((e) => !GUARDING_EVENTS.includes(e));
  if (other.length) notes.push(`the Agent SDK host's ${other.join(', ')} hook callbacks are not delivered by this version of wicket`);
  return { hooksApplied: false, notes };
}
