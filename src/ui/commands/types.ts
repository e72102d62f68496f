/** Slash commands: what they can see of the session, and what they hand back to the app. */
import type { AgentOptions } from '../../core/agent-options.js';
import type { ApiMessage } from '../../base/events.js';
import type { Totals } from '../../core/run-prompt.js';
import type { LoadedSettings } from '../../settings/load.js';
import type { McpServerState } from '../../mcp/servers.js';
import type { TraceEntry } from '../types.js';
import type { PreferencesControl } from '../hooks/use-preferences.js';
import type { PickOption } from '../SelectDialog.js';

/** The session as commands see it. `options` is the live object: changing `model` or `permission` takes effect at once. */
export interface SessionControl {
  options: Omit<AgentOptions, 'signal' | 'askUser'>;
  loaded: LoadedSettings;
  cwd: string;
  configDir: string;
  totals: Totals;
  traces: readonly TraceEntry[];
  commands: readonly SlashCommand[];
  /** Session file, when the session is saved. */
  transcriptPath?: string;
  /** Number of messages in the conversation. */
  messageCount: number;
  /** The conversation (/export, /context). */
  messages?: readonly ApiMessage[];
  /** Names the saved session (/rename); undefined when the session is not saved. */
  rename?: (name: string) => void;
  /** The session's MCP servers, as they are now. */
  mcpServers?: readonly McpServerState[];
  /** Starts signing in to a remote MCP server: the URL to open, or why not (the end is reported later). */
  mcpSignIn?: (name: string) => Promise<{ url: string } | { error: string } | { done: string }>;
  /** /mcp reconnect | enable | disable <server>. */
  mcpControl?: (name: string, verb: 'reconnect' | 'enable' | 'disable') => Promise<{ text: string } | { error: string }>;
  /** Clears a remote MCP server's stored authentication. */
  mcpSignOut?: (name: string) => Promise<{ text: string } | { error: string }>;
  /** The checkpoint taken with the session's first prompt that had one (/diff without git shows the changes since). */
  firstCheckpoint?: number;
  /** The terminal's width, for commands that lay out columns. */
  columns?: number;
  /** The person's home, and CLAUDE_CONFIG_DIR when set (where user settings are saved). */
  home?: string;
  configDirOverride?: string;
  /** Theme, editor mode, notifications… changed now and saved (use-preferences.ts). */
  preferences?: PreferencesControl;
  /** A line in the transcript, for what a command learns after it returned. */
  note?: (text: string, tone?: 'info' | 'warning' | 'error') => void;
  /** The app can show the plugin screen (/plugin answers `{ kind: 'plugins' }`). */
  openPlugins?: boolean;
  /** /reload-plugins: the plugins read again; what loaded, and whether something did not. */
  reloadPlugins?: () => Promise<{ text: string; warning?: boolean }>;
}

export type CommandResult =
  | { kind: 'info'; text: string; tone?: 'info' | 'warning' | 'error' }
  | { kind: 'prompt'; text: string; allowedTools?: readonly string[]; context?: string }
  | { kind: 'clear' }
  | { kind: 'rewind' }
  /** /resume: the picker, or the session named by `query` (an id or a name). */
  | { kind: 'resume'; query?: string }
  /** /branch: go on in a new session that holds this conversation. */
  | { kind: 'branch' }
  | { kind: 'plugins' }
  | { kind: 'compact'; instructions?: string }
  /** Open the file in the person's editor; the instruction files are read again after. */
  | { kind: 'edit'; file: string }
  | { kind: 'exit' }
  /** A list to choose from; the choice is run as `pick` and its result applied. */
  | { kind: 'pick'; title: string; options: PickOption[]; selected?: number; pick: (value: string) => CommandResult | Promise<CommandResult> }
  /** The settings screen. */
  | { kind: 'config' };

export interface SlashCommand {
  name: string;
  aliases?: string[];
  description: string;
  argumentHint?: string;
  source: 'builtin' | 'project' | 'user' | 'mcp' | 'plugin';
  /** A command whose text goes to the model (a custom command, a skill, an MCP prompt, /init): UserPromptExpansion hooks run first. */
  expands?: boolean;
  run(args: string, session: SessionControl): CommandResult | Promise<CommandResult>;
}
