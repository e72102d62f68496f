/**
 * The app's MCP servers: approved ones start with the app; a project server (.mcp.json) the settings
 * have not approved waits for the person's answer, which is saved as Claude Code saves it. A run
 * waits until every server has connected, failed or been turned down, so the model sees the tools
 * from the first prompt on; a server whose tools change later has them changed in the session too.
 * A remote server that needs authentication is signed in to from /mcp, and its tools join then.
 */
import { followMcpTools, useMcpTools } from '../core/setup/mcp-setup.js';
import { openBrowser } from '../mcp/open-browser.js';
import type { AgentOptions } from '../core/agent-options.js';
import type { McpServers, McpServerState } from '../mcp/servers.js';
import { saveMcpApproval, type McpApproval } from '../settings/persist.js';
import { saveMcpToggle } from '../settings/mcp-toggle.js';

export class McpSession {
  private starts: Promise<void>[] = [];
  private waiting: string[];
  private approvalsDone!: () => void;
  private readonly approvals = new Promise<void>((resolve) => (this.approvalsDone = resolve));
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly servers: McpServers,
    private readonly agent: Pick<AgentOptions, 'tools' | 'system' | 'permission' | 'env' | 'homeDir'>,
    private readonly projectRoot: string,
    /** --tools: the built-in tools the session may have (ToolSearch among them or not). */
    private readonly only?: readonly string[],
  ) {
    this.waiting = servers
      .list()
      .filter((s) => s.status === 'needs-approval')
      .map((s) => s.name);
    if (!this.waiting.length) this.approvalsDone();
    followMcpTools(agent, servers);
  }

  private started = false;

  /** Starts every server that needs no answer (once; the app calls it after its first frame, a run before it). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.starts.push(this.servers.start().then(() => useMcpTools(this.agent, this.servers, this.only)));
  }

  /** Project servers waiting for the person's answer, first one first. */
  needsApproval(): readonly string[] {
    return this.waiting;
  }

  /** Saves the answer for `name` ('all' answers for every waiting server) and starts what it allows. */
  async answer(name: string, answer: McpApproval): Promise<{ error?: string }> {
    const names = answer === 'all' ? this.waiting : [name];
    this.waiting = this.waiting.filter((n) => !names.includes(n));
    let error: string | undefined;
    await saveMcpApproval(this.projectRoot, name, answer).catch((err: Error) => (error = err.message));
    if (answer !== 'never') this.starts.push(this.servers.start(names).then(() => useMcpTools(this.agent, this.servers, this.only)));
    if (!this.waiting.length) this.approvalsDone();
    return error ? { error } : {};
  }

  /**
   * Starts signing in to `name`: resolves with the authorization URL to open once the server's
   * authorization server has given it (the browser is tried too), or with why it cannot start.
   * `report` is told later how the sign-in ended.
   */
  signIn(name: string, report: (text: string, tone: 'info' | 'warning') => void): Promise<{ url: string } | { error: string } | { done: string }> {
    return new Promise((resolve) => {
      let shown = false;
      const run = this.servers.signIn(name, {
        onUrl: (url) => {
          shown = true;
          openBrowser(url, this.agent.env);
          resolve({ url });
        },
      });
      void run.then(
        (result) => {
          useMcpTools(this.agent, this.servers, this.only);
          const text = connectedText(
            this.servers.list().find((s) => s.name === name),
            result,
          );
          if (shown) report(text.text, text.tone);
          else resolve({ done: text.text });
        },
        (err: Error) => {
          if (shown) report(`Signing in to MCP server "${name}" did not finish: ${err.message}`, 'warning');
          else resolve({ error: err.message });
        },
      );
    });
  }

  /** Clears the server's stored authentication; says what was done. */
  async signOut(name: string): Promise<{ text: string } | { error: string }> {
    try {
      const had = await this.servers.signOut(name);
      useMcpTools(this.agent, this.servers, this.only);
      return { text: had ? `Cleared the stored authentication of MCP server "${name}".` : `MCP server "${name}" had no stored authentication.` };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  /**
   * /mcp reconnect, enable, disable: the server connected again, turned on or off; what happened. Enable
   * and disable are saved as Claude Code saves them (settings/mcp-toggle.ts), so the next start keeps them.
   */
  async control(name: string, verb: 'reconnect' | 'enable' | 'disable'): Promise<{ text: string } | { error: string }> {
    try {
      if (verb === 'reconnect') await this.servers.reconnectServer(name);
      else await this.servers.setEnabled(name, verb === 'enable');
      useMcpTools(this.agent, this.servers, this.only);
      const state = this.servers.list().find((s) => s.name === name);
      const took = verb === 'disable' || (verb === 'enable' && state?.status !== 'disabled');
      const saved = took && state ? await this.saveToggle(state, verb === 'enable') : '';
      const tools = state?.status === 'connected' ? ` (${state.toolNames.length} tool${state.toolNames.length === 1 ? '' : 's'})` : '';
      const done = { reconnect: 'reconnected', enable: 'turned on', disable: 'turned off' }[verb];
      if (verb !== 'disable' && state?.status !== 'connected')
        return { error: `MCP server "${name}" did not connect: ${state?.error ?? state?.status ?? 'unknown server'}${saved}` };
      return { text: `MCP server "${name}" ${done}${tools}${saved}.` };
    } catch (err) {
      return { error: (err as Error).message };
    }
  }

  /** Keeps the choice for the next start; says where, or why it lasts for this session only. */
  private async saveToggle(state: McpServerState, enabled: boolean): Promise<string> {
    if (state.scope === 'sdk') return '';
    const where = { cwd: this.projectRoot, home: this.agent.homeDir, configDir: this.agent.env.CLAUDE_CONFIG_DIR || undefined };
    try {
      return `; saved in ${await saveMcpToggle(where, state, enabled)}`;
    } catch (err) {
      return `; for this session only: ${(err as Error).message}`;
    }
  }

  /** Resolves once no server is waiting for an answer or still starting. */
  async ready(): Promise<void> {
    this.start();
    await this.approvals;
    for (let seen = 0; seen < this.starts.length; ) {
      const batch = this.starts.slice(seen);
      seen = this.starts.length;
      await Promise.all(batch);
    }
  }

  /** Calls `listener` whenever a server's state changes; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** For the servers' own onChange. */
  changed(): void {
    for (const l of this.listeners) l();
  }

  close(): Promise<void> {
    this.approvalsDone();
    return this.servers.close();
  }
}

/** How a sign-in ended, as the server stands after connecting again. */
function connectedText(state: McpServerState | undefined, result: 'signed-in' | 'not-needed'): { text: string; tone: 'info' | 'warning' } {
  const name = state?.name ?? '?';
  const did = result === 'signed-in' ? `Signed in to MCP server "${name}"` : `MCP server "${name}" did not ask for a sign-in`;
  if (state?.status === 'connected') {
    const n = state.toolNames.length;
    return { text: `${did}: connected, ${n} tool${n === 1 ? '' : 's'}.`, tone: 'info' };
  }
  return { text: `${did}, but it did not connect: ${state?.error ?? state?.status ?? 'unknown'}`, tone: 'warning' };
}
