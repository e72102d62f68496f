/** What the answers to the SDK's requests work on: the session, its turns, its servers. */
import type { AgentOptions } from '../core/agent-options.js';
import type { ApiMessage } from '../base/events.js';
import type { CliOptions } from '../core/setup/options.js';
import type { Setup } from '../core/setup/session-setup.js';
import type { McpServers } from '../mcp/servers.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { TurnQueue } from './input.js';
import type { SdkSession } from './session.js';
import type { TurnRunner } from './turns.js';

/** The session's MCP servers: made on demand when it had none and the SDK adds some (mcp_set_servers). */
export interface McpHolder {
  servers: McpServers | undefined;
  /** The servers, made empty when there were none. */
  ensure(): McpServers;
  /** Puts the servers' tools into the session again (after a change). */
  refreshTools(): void;
}

export interface SdkContext {
  opts: CliOptions;
  session: SdkSession;
  setup: Setup;
  /** The session's options (the turn that runs has a copy: change both through `turns.change`). */
  base: AgentOptions;
  turns: TurnRunner;
  queue: TurnQueue;
  messages: ApiMessage[];
  mcp: McpHolder;
  transcript?: TranscriptWriter;
  /** Writes one line on stdout. */
  write: (line: Record<string, unknown>) => void;
}
