/**
 * A session's MCP servers: which are waiting, connected or failed, and the tools, prompts and
 * resources of those that connected (with ListMcpResourcesTool and ReadMcpResourceTool once one
 * offers resources). Servers start together; one that fails (or is slow to start) costs the others
 * nothing. A server that says its lists changed has them listed again, and the listeners are told.
 * What a server's state holds is server-state.ts; its prompts as slash commands, server-prompts.ts;
 * the limits and options, server-options.ts; the OAuth sign-ins under way, sign-in-runs.ts.
 */
import type { McpConfig, McpScope, McpServerEntry, McpTransportConfig } from './config.js';
import { connectServer, McpAuthRequiredError } from './connect.js';
import type { McpCallResult, McpConnection, McpListKind, McpResourceContents, McpResourceInfo, McpToolInfo } from './types.js';
import { signIn, signOut, type RemoteConfig } from './oauth-login.js';
import { hasStoredTokens } from './oauth-store.js';
import { listResourcesTool, readResourceTool, type McpResourceSource } from './resource-tools.js';
import { mcpTool } from './tool.js';
import { connectSdkServer, type SdkServerEntry } from './sdk-server.js';
import { initialState, type McpServerResource, type McpServerState } from './server-state.js';
import type { McpServersOptions } from './server-options.js';
import { SignInRuns } from './sign-in-runs.js';
import { expandPromptCommand, type McpPromptCommand, promptCommands } from './server-prompts.js';
import type { Tool } from '../base/tool.js';

export type { McpServerResource, McpServerState, McpStatus } from './server-state.js';
export { mcpLimitsFromEnv, type McpServersOptions } from './server-options.js';
export type { McpPromptCommand } from './server-prompts.js';

const MAX_TOOL_NAME = 64;

export class McpServers implements McpResourceSource {
  private readonly states = new Map<string, McpServerState>();
  private readonly configs = new Map<string, McpTransportConfig>();
  /** The Agent SDK host's in-process servers, by name. */
  private readonly sdkEntries = new Map<string, SdkServerEntry>();
  /** Servers whose entry says `alwaysLoad: true`. */
  private readonly alwaysLoaded = new Set<string>();
  private readonly connections = new Map<string, McpConnection>();
  private readonly toolsByServer = new Map<string, Tool[]>();
  private readonly listListeners = new Set<(server: string, kind: McpListKind) => void>();
  private readonly resourceTools: Tool[];
  private readonly signIns = new SignInRuns();
  private closed = false;

  constructor(
    config: McpConfig,
    private readonly opts: McpServersOptions,
  ) {
    for (const e of config.servers) this.add(e, opts.holdUnapproved && config.unapproved.includes(e.name));
    this.resourceTools = [listResourcesTool(this, opts), readResourceTool(this, opts)];
    for (const e of config.disabled) this.add(e, false, true);
  }

  /** A server's state (and configuration, when it has one to start with). */
  private add(e: McpServerEntry, held: boolean, off = false): void {
    this.states.set(e.name, initialState(e, held, off));
    // A server the person turned off keeps its configuration, so /mcp enable can start it; a policy's refusal does not.
    if (e.config && (!off || e.userOff)) this.configs.set(e.name, e.config);
    if (e.alwaysLoad) this.alwaysLoaded.add(e.name);
    else this.alwaysLoaded.delete(e.name);
  }

  /**
   * Makes the servers of `scope` those of `config` (the plugins' servers, reloaded): one no longer
   * listed, or listed with another configuration, is closed and dropped; a new one starts. Resolves
   * once the new ones have connected or failed.
   */
  async replaceScope(scope: McpScope, config: Pick<McpConfig, 'servers' | 'disabled'>): Promise<{ added: string[]; removed: string[] }> {
    const off = new Set(config.disabled.map((e) => e.name));
    const wanted = new Map([...config.servers, ...config.disabled].filter((e) => e.scope === scope).map((e) => [e.name, e]));
    const removed: string[] = [];
    for (const state of [...this.states.values()].filter((s) => s.scope === scope)) {
      const next = wanted.get(state.name);
      const same = next && !off.has(next.name) && state.status !== 'disabled' && JSON.stringify(next.config) === JSON.stringify(this.configs.get(state.name));
      if (same) {
        wanted.delete(state.name);
        continue;
      }
      await this.forget(state.name)
        ?.close()
        .catch(() => {});
      removed.push(state.name);
    }
    for (const e of wanted.values()) this.add(e, false, off.has(e.name));
    this.opts.onChange?.();
    await this.start([...wanted.keys()]);
    return { added: [...wanted.keys()], removed };
  }

  /**
   * The Agent SDK host's in-process servers (its initialize request): started with the others, and
   * in place of a configured server of the same name. Returns the names they replaced.
   */
  addSdkServers(entries: SdkServerEntry[]): string[] {
    const replaced: string[] = [];
    for (const e of entries) {
      if (this.states.has(e.name)) replaced.push(e.name);
      this.configs.delete(e.name);
      this.states.delete(e.name);
      this.sdkEntries.set(e.name, e);
      this.states.set(e.name, {
        name: e.name,
        scope: 'sdk',
        source: 'sdk',
        detail: 'in-process (Agent SDK host)',
        status: 'pending',
        toolNames: [],
        skipped: [],
      });
    }
    return replaced;
  }

  get size(): number {
    return this.states.size;
  }

  list(): McpServerState[] {
    return [...this.states.values()].map((s) => ({ ...s, toolNames: [...s.toolNames], skipped: [...s.skipped] }));
  }

  /** Starts the pending servers (or the named ones, e.g. once approved); resolves when each has connected or failed. */
  async start(names?: string[]): Promise<void> {
    const todo = [...this.states.values()].filter((s) =>
      names ? names.includes(s.name) && s.status !== 'connected' && s.status !== 'disabled' : s.status === 'pending',
    );
    await Promise.all(todo.map((s) => this.startOne(s)));
  }

  /**
   * The connected servers' tools, in the order the servers were configured; then
   * ListMcpResourcesTool and ReadMcpResourceTool when one of them offers resources.
   */
  tools(): Tool[] {
    const out: Tool[] = [];
    for (const name of this.states.keys()) out.push(...(this.toolsByServer.get(name) ?? []));
    if ([...this.connections.values()].some((c) => c.hasResources)) out.push(...this.resourceTools);
    return out;
  }

  /** The names of the tools tools() may hold that are not `mcp__…`. */
  get resourceToolNames(): string[] {
    return this.resourceTools.map((t) => t.name);
  }

  connectedServers(): Array<{ name: string; hasResources: boolean }> {
    return [...this.states.keys()].flatMap((name) => {
      const c = this.connections.get(name);
      return c ? [{ name, hasResources: c.hasResources }] : [];
    });
  }

  /** The connected servers' resources as last listed. */
  resources(): McpServerResource[] {
    return this.connectedServers().flatMap(({ name }) => this.connections.get(name)!.resources.map((r) => ({ ...r, server: name })));
  }

  async listResources(server: string): Promise<McpResourceInfo[]> {
    const resources = await this.connection(server).listResources();
    this.countResources(server);
    return resources;
  }

  async readResource(server: string, uri: string, signal: AbortSignal): Promise<McpResourceContents[]> {
    return this.connection(server).readResource(uri, signal);
  }

  /** Calls `listener` after a server's tools, prompts or resources were listed again; returns the way to stop. */
  onListChanged(listener: (server: string, kind: McpListKind) => void): () => void {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  }

  /** The connected servers' prompts, as slash commands `/mcp__<server>__<prompt>`. */
  prompts(): McpPromptCommand[] {
    return promptCommands(this.connections);
  }

  /**
   * `/mcp__server__prompt word word…` → the prompt's text, with the words given to its arguments in
   * order (the last takes the rest). Undefined when the text names no prompt of a connected server.
   */
  expandPrompt(text: string): Promise<{ ok: true; text: string } | { ok: false; message: string } | undefined> {
    return expandPromptCommand(text, this.connections);
  }

  /** The servers' instructions for the model, one section each. */
  instructions(): string[] {
    const out: string[] = [];
    for (const [name, c] of this.connections) if (c.instructions?.trim()) out.push(`## ${name}\n${c.instructions.trim().slice(0, 2048)}`);
    return out;
  }

  /** Calls a tool of a connected server by its own name (a hook's `mcp_tool`); rejects when the server is not connected. */
  async callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    return this.connection(server).callTool(tool, args, { signal, onProgress: () => {} });
  }

  private connection(server: string): McpConnection {
    const c = this.connections.get(server);
    if (!c) throw new Error(`the MCP server "${server}" is not connected`);
    return c;
  }

  private countResources(server: string): void {
    const state = this.states.get(server);
    const c = this.connections.get(server);
    if (state && c) state.resourceCount = c.hasResources ? c.resources.length : undefined;
  }

  /**
   * Signs in to an http or sse server (see oauth-login.ts; `onUrl` is told the URL to open) and
   * connects it again with the new tokens. A second sign-in to the same server cancels the first.
   */
  async signIn(name: string, o: { onUrl: (url: string) => void; waitMs?: number }): Promise<'signed-in' | 'not-needed'> {
    const { state, config, oauthStore } = this.remote(name);
    if (state.status === 'disabled' || state.status === 'needs-approval')
      throw new Error(`the MCP server "${name}" is ${state.status === 'disabled' ? 'turned off' : 'not approved yet'}`);
    const start = (signal: AbortSignal) =>
      signIn(config, { ...this.opts, name, oauthStore, onUrl: o.onUrl, signal, ...(o.waitMs ? { waitMs: o.waitMs } : {}) });
    return this.signIns.run(name, start, async () => {
      if (!this.closed) await this.reconnect(state);
    });
  }

  /** Forgets the server's stored OAuth tokens and registration, and connects it again without them; false when none were stored. */
  async signOut(name: string): Promise<boolean> {
    const { state, config, oauthStore } = this.remote(name);
    this.signIns.cancel(name);
    const had = await signOut(config, { name, oauthStore });
    if (state.status !== 'disabled' && state.status !== 'needs-approval') await this.reconnect(state);
    return had;
  }

  private remote(name: string): { state: McpServerState; config: RemoteConfig; oauthStore: string } {
    const state = this.states.get(name);
    const config = this.configs.get(name);
    if (!state) throw new Error(`no MCP server named "${name}"`);
    if (!config || config.type === 'stdio' || config.type === 'ws')
      throw new Error(`the MCP server "${name}" is not an http or sse server: only those sign in with OAuth`);
    if (!this.opts.oauthStore) throw new Error('there is no place to keep OAuth tokens in this session');
    return { state, config, oauthStore: this.opts.oauthStore };
  }

  /** Connects a server again (its lists are read again); a server turned off stays off. */
  async reconnectServer(name: string): Promise<void> {
    const state = this.known(name);
    if (state.status === 'disabled') throw new Error(`the MCP server "${name}" is turned off`);
    await this.reconnect(state);
  }

  /** Turns a server off (it disconnects and its tools go) or on again (it connects). */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const state = this.known(name);
    if (!enabled) {
      const conn = this.connections.get(name);
      this.connections.delete(name);
      this.toolsByServer.delete(name);
      this.update(state, { status: 'disabled', error: 'turned off', toolNames: [], resourceCount: undefined });
      await conn?.close().catch(() => {});
      return;
    }
    if (state.status === 'disabled' && this.configs.has(name)) await this.reconnect(state);
  }

  /** Adds servers (a name already there is replaced) and starts them; resolves when each has connected or failed. */
  async addServers(entries: McpServerEntry[]): Promise<void> {
    for (const e of entries) {
      if (this.states.has(e.name)) await this.removeServer(e.name);
      this.add(e, false);
    }
    await this.start(entries.map((e) => e.name));
  }

  /** Disconnects a server and forgets it. */
  async removeServer(name: string): Promise<void> {
    const conn = this.forget(name);
    this.opts.onChange?.();
    await conn?.close().catch(() => {});
  }

  /** Drops a server's state, configuration, connection and tools; returns the connection, to be closed. */
  private forget(name: string): McpConnection | undefined {
    const conn = this.connections.get(name);
    this.connections.delete(name);
    this.toolsByServer.delete(name);
    this.states.delete(name);
    this.configs.delete(name);
    this.alwaysLoaded.delete(name);
    return conn;
  }

  private known(name: string): McpServerState {
    const state = this.states.get(name);
    if (!state) throw new Error(`no MCP server named "${name}"`);
    return state;
  }

  private async reconnect(state: McpServerState): Promise<void> {
    const old = this.connections.get(state.name);
    if (old) {
      this.connections.delete(state.name);
      await old.close().catch(() => {});
    }
    await this.startOne(state);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signIns.cancelAll();
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close().catch(() => {})));
  }

  private async startOne(state: McpServerState): Promise<void> {
    const config = this.configs.get(state.name);
    const sdkEntry = this.sdkEntries.get(state.name);
    if (!config && !sdkEntry) return;
    this.update(state, { status: 'pending', error: undefined });
    const signedIn = () =>
      config && config.type !== 'stdio' && this.opts.oauthStore ? hasStoredTokens(this.opts.oauthStore, state.name, config.url) : undefined;
    try {
      const opts = { ...this.opts, name: state.name };
      const conn = sdkEntry ? await (this.opts.connectSdk ?? connectSdkServer)(sdkEntry, opts) : await (this.opts.connect ?? connectServer)(config!, opts);
      if (this.closed) {
        await conn.close();
        return this.update(state, { status: 'failed', error: 'the session ended before it connected' });
      }
      this.connections.set(state.name, conn);
      this.addTools(state, conn);
      this.countResources(state.name);
      conn.onListChanged((kind) => this.listChanged(state, conn, kind));
      conn.onLost((why) => {
        this.connections.delete(state.name);
        this.update(state, { status: 'failed', error: why });
      });
      this.update(state, { status: 'connected', signedIn: signedIn() });
    } catch (err) {
      const status = err instanceof McpAuthRequiredError ? 'needs-auth' : 'failed';
      this.update(state, { status, error: err instanceof Error ? err.message : String(err), signedIn: signedIn() });
    }
  }

  private listChanged(state: McpServerState, conn: McpConnection, kind: McpListKind): void {
    if (this.connections.get(state.name) !== conn) return;
    if (kind === 'tools') this.addTools(state, conn);
    if (kind === 'resources') this.countResources(state.name);
    this.opts.onChange?.();
    for (const l of this.listListeners) l(state.name, kind);
  }

  private addTools(state: McpServerState, conn: McpConnection): void {
    this.toolsByServer.delete(state.name);
    const taken = new Set(this.tools().map((t) => t.name));
    const tools: Tool[] = [];
    const skipped: string[] = [];
    for (const info of conn.tools as McpToolInfo[]) {
      const opts = { maxOutputChars: this.opts.maxOutputChars, alwaysLoad: this.alwaysLoaded.has(state.name), source: state.scope };
      const tool = mcpTool(state.name, info, conn, opts);
      if (tool.name.length > MAX_TOOL_NAME || taken.has(tool.name)) skipped.push(tool.name);
      else {
        taken.add(tool.name);
        tools.push(tool);
      }
    }
    this.toolsByServer.set(state.name, tools);
    state.toolNames = tools.map((t) => t.name);
    state.skipped = skipped;
  }

  private update(state: McpServerState, change: Partial<McpServerState>): void {
    Object.assign(state, change);
    if (change.status === 'failed' || change.status === 'needs-auth') {
      this.toolsByServer.delete(state.name);
      state.toolNames = [];
      state.resourceCount = undefined;
    }
    this.opts.onChange?.();
  }
}
