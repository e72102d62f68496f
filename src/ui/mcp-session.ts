/**
 * The app's MCP servers: approved ones start with the app; a project server (.mcp.json) the settings
 * have not approved waits for the person's answer, which is saved as Claude Code saves it. A run
 * waits until every server has connected, failed or been turned down, so the model sees the tools
 * from the first prompt on; a server whose tools change later has them changed in the session too.
 */
import { followMcpTools, useMcpTools } from '../cli/mcp-setup.js';
import type { AgentOptions } from '../core/agent-options.js';
import type { McpServers } from '../mcp/servers.js';
import { saveMcpApproval, type McpApproval } from '../settings/persist.js';

export class McpSession {
  private starts: Promise<void>[] = [];
  private waiting: string[];
  private approvalsDone!: () => void;
  private readonly approvals = new Promise<void>((resolve) => (this.approvalsDone = resolve));
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly servers: McpServers,
    private readonly agent: Pick<AgentOptions, 'tools' | 'system' | 'permission' | 'env'>,
    private readonly projectRoot: string,
    /** --tools: the built-in tools the session may have (ToolSearch among them or not). */
    private readonly only?: readonly string[],
  ) {
    this.waiting = servers.list().filter((s) => s.status === 'needs-approval').map((s) => s.name);
    if (!this.waiting.length) this.approvalsDone();
    followMcpTools(agent, servers);
  }

  /** Starts every server that needs no answer. */
  start(): void {
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

  /** Resolves once no server is waiting for an answer or still starting. */
  async ready(): Promise<void> {
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
