/**
 * The transport of an in-process MCP server of an Agent SDK host (`createSdkMcpServer`): each
 * JSON-RPC message the client sends is carried by an injected link (the SDK protocol's `mcp_message`
 * control requests), and the message the server answers with comes back as the reply. When the host
 * captured the server's `initialize` and `tools/list` results in advance (its manifest), those two
 * are answered here and `notifications/initialized` is not sent: only the calls travel. Messages the
 * server sends of its own (a list changed, a request to the client) arrive through `receive()`, and
 * a request among them is answered with the client's reply.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How messages reach the server, and how the server's own messages come back. */
export interface ControlLink {
  /** Resolves with the server's reply (a JSON-RPC message, or nothing for a notification); aborting withdraws the request. */
  send(message: JSONRPCMessage, signal: AbortSignal): Promise<unknown>;
  /** Told where the server's own messages go (the transport's `receive`). */
  listen?(receive: (message: unknown) => Promise<JSONRPCMessage>): void;
}

/** The server's `initialize` and `tools/list` results, captured by the host before it started the session. */
export interface SdkServerManifest {
  initializeResult?: Record<string, unknown>;
  toolsListResult?: Record<string, unknown>;
}

type Id = string | number;

/** JSON-RPC's "internal error": the link failed, or the reply was not a response to the request. */
const INTERNAL_ERROR = -32603;

export class ControlTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Requests on their way to the server: aborted when the client cancels one, or the transport closes. */
  private readonly inflight = new Map<Id, AbortController>();
  /** The server's own requests, waiting for the client's reply. */
  private readonly awaiting = new Map<Id, (reply: JSONRPCMessage) => void>();
  private listedFromManifest = false;
  private closed = false;

  constructor(
    private readonly link: ControlLink,
    private readonly manifest?: SdkServerManifest,
  ) {
    link.listen?.((message) => this.receive(message));
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the in-process MCP server is closed');
    const m = message as { id?: Id; method?: string; params?: { requestId?: Id } };
    if (m.method === undefined && m.id !== undefined) {
      // The client's reply to one of the server's own requests.
      this.awaiting.get(m.id)?.(message);
      this.awaiting.delete(m.id);
      return;
    }
    if (m.id === undefined) return this.notify(message, m.method, m.params?.requestId);
    const local = this.fromManifest(m.method, m.id);
    if (local) {
      queueMicrotask(() => this.deliver(local));
      return;
    }
    void this.forward(m.id, message);
  }

  /**
   * A message the server sent of its own accord (an `mcp_message` request from the host): given to
   * the client; for a request, resolves with the client's reply, else with an empty result.
   */
  async receive(message: unknown): Promise<JSONRPCMessage> {
    const m = message as { jsonrpc?: unknown; id?: Id; method?: unknown };
    if (typeof m !== 'object' || m === null || m.jsonrpc !== '2.0' || typeof m.method !== 'string') {
      throw new Error('not a JSON-RPC request or notification');
    }
    if (this.closed) throw new Error('the in-process MCP server is closed');
    if (m.id === undefined) {
      this.deliver(message as JSONRPCMessage);
      return { jsonrpc: '2.0', id: 0, result: {} };
    }
    const reply = new Promise<JSONRPCMessage>((resolve) => this.awaiting.set(m.id!, resolve));
    this.deliver(message as JSONRPCMessage);
    return reply;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const ctl of this.inflight.values()) ctl.abort(new Error('the MCP connection closed'));
    this.inflight.clear();
    for (const [id, answer] of this.awaiting) answer({ jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: 'the MCP connection closed' } });
    this.awaiting.clear();
    this.onclose?.();
  }

  /** With a manifest: `initialize` and the first `tools/list` are answered from it. */
  private fromManifest(method: string | undefined, id: Id): JSONRPCMessage | undefined {
    if (method === 'initialize' && this.manifest?.initializeResult) return { jsonrpc: '2.0', id, result: this.manifest.initializeResult };
    if (method === 'tools/list' && this.manifest?.toolsListResult && !this.listedFromManifest) {
      this.listedFromManifest = true;
      return { jsonrpc: '2.0', id, result: this.manifest.toolsListResult };
    }
    return undefined;
  }

  /** A notification: a cancel withdraws the request it names; `initialized` stays here when the manifest stood in for the handshake. */
  private async notify(message: JSONRPCMessage, method: string | undefined, cancelled: Id | undefined): Promise<void> {
    if (method === 'notifications/cancelled' && cancelled !== undefined) {
      this.inflight.get(cancelled)?.abort(new Error('the client cancelled the request'));
      this.inflight.delete(cancelled);
      return;
    }
    if (method === 'notifications/initialized' && this.manifest?.initializeResult) return;
    try {
      await this.link.send(message, new AbortController().signal);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private async forward(id: Id, request: JSONRPCMessage): Promise<void> {
    const ctl = new AbortController();
    this.inflight.set(id, ctl);
    let reply: unknown;
    try {
      reply = await this.link.send(request, ctl.signal);
    } catch (err) {
      reply = { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) } };
    }
    if (ctl.signal.aborted || this.closed) return;
    this.inflight.delete(id);
    this.deliver(
      isReplyTo(reply, id)
        ? reply
        : { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: 'the in-process MCP server gave no answer to the request' } },
    );
  }

  private deliver(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }
}

/** A JSON-RPC response (result or error) with the request's id. */
function isReplyTo(reply: unknown, id: Id): reply is JSONRPCMessage {
  const r = reply as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  return typeof r === 'object' && r !== null && r.jsonrpc === '2.0' && r.id === id && (r.result !== undefined || r.error !== undefined);
}
