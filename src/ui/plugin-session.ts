/**
 * The app's side of its plugins: /reload-plugins reads them again (core/setup/plugin-reload.ts) and
 * the app's slash commands are listed again, since plugins bring commands and skills; the /plugin
 * screen reads and changes Claude Code's files through `manageContext`.
 */
import { reloadPlugins } from '../core/setup/plugin-reload.js';
import type { CliOptions } from '../core/setup/options.js';
import type { Setup } from '../core/setup/session-setup.js';
import { activePlugins } from '../plugins/active.js';
import type { ManageContext } from '../plugins/manage-context.js';
import type { PluginSet } from '../plugins/types.js';
import type { SlashCommand } from './commands/types.js';
import type { McpSession } from './mcp-session.js';

export class PluginSession {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly opts: CliOptions,
    private readonly setup: Setup,
    private readonly env: Record<string, string | undefined>,
    private readonly listCommands: () => SlashCommand[],
    private readonly mcp?: McpSession,
  ) {}

  get manageContext(): ManageContext {
    const env = this.env;
    return { cwd: this.setup.cwd, home: this.setup.options.homeDir, ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}), env };
  }

  active(): PluginSet {
    return activePlugins();
  }

  /** Reads the plugins again; the text says what loaded (and what did not). */
  async reload(): Promise<{ text: string; warning?: boolean }> {
    try {
      const r = await reloadPlugins(this.opts, this.setup, { env: this.env, home: this.setup.options.homeDir, ...(this.mcp ? { mcp: this.mcp.servers } : {}) });
      this.mcp?.changed();
      for (const l of this.listeners) l();
      return { text: r.text, ...(r.problems ? { warning: true } : {}) };
    } catch (err) {
      return { text: `The plugins were not reloaded: ${(err as Error).message}`, warning: true };
    }
  }

  /** The app's slash commands, as the plugins are now. */
  commands(): SlashCommand[] {
    return this.listCommands();
  }

  /** Calls `listener` after each reload; returns the way to stop. */
  onReload(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
