/**
 * The SDK host's guards, wired into the session: `can_use_tool` (--permission-prompt-tool stdio),
 * hook callbacks (`initialize.hooks`, asked with `hook_callback`) and in-process MCP servers
 * (`initialize.sdkMcpServers`, reached with `mcp_message`). The hook callbacks and the servers
 * join the session as it is set up (hook-callbacks.ts, mcp-links.ts); can_use_tool answers the calls
 * that would ask once it is. A guard that cannot be delivered fails closed: the call is refused.
 */
import type { AgentOptions } from '../core/agent-options.js';
import { permissionEffects, type PermissionTarget } from '../core/permission-updates.js';
import { canUseToolAsker } from './can-use-tool.js';
import type { SdkSession } from './session.js';

export { SDK_ANSWERER as SDK_HOST } from './can-use-tool.js';

export interface WiredGuards {
  /** For the initialize answer: whether the host's hook callbacks are registered (absent when it sent none). */
  hooksApplied?: boolean;
  /** Problems to say on stderr, once. */
  notes: string[];
}

export interface GuardDeps {
  /** Ends the current turn as the SDK's `interrupt` does (a can_use_tool denial with `interrupt: true`). */
  interrupt?: () => void;
  /** Whether bypassPermissions may be entered (an `updatedPermissions` setMode). */
  canBypass?: boolean;
  /** The user settings' folder, when CLAUDE_CONFIG_DIR moves it. */
  configDir?: string;
  /** Told, on stderr, what of an answer could not be applied. */
  note?: (message: string) => void;
}

export function wireSdkGuards(session: SdkSession, agent: AgentOptions, deps: GuardDeps = {}): WiredGuards {
  const notes: string[] = [];
  const where = { canBypass: deps.canBypass === true, ...(deps.configDir ? { configDir: deps.configDir } : {}) };
  // The turns run on copies of these options; the permission state and folders are shared.
  const target = (): PermissionTarget => ({
    permission: agent.permission,
    additionalDirs: agent.additionalDirs,
    projectRoot: agent.projectRoot,
    cwd: agent.state.cwd,
    homeDir: agent.homeDir,
    ...where,
  });
  // A PermissionRequest hook (a callback or a command) changes the permissions and ends the turn as canUseTool does.
  agent.permissionEffects = permissionEffects(agent, { ...where, interrupt: () => deps.interrupt?.() });
  if (session.permissionPromptStdio) {
    agent.askUser = canUseToolAsker({
      request: (body, signal) => session.channel.request('can_use_tool', body, { signal }),
      target,
      ...(deps.interrupt ? { interrupt: deps.interrupt } : {}),
      ...(deps.note ? { warn: deps.note } : {}),
    });
  }
  const registered = session.init?.hooks !== undefined && Object.keys(session.hooks).length > 0;
  return { ...(registered ? { hooksApplied: true } : {}), notes };
}
