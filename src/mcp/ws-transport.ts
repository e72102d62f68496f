/**
 * The "ws" transport of Claude Code's MCP entries: JSON-RPC messages as WebSocket text frames,
 * subprotocol "mcp", with the entry's headers on the upgrade request. Node 20 has no WebSocket of
 * its own; the `ws` package connects. Part of the MCP bundle (sdk-parts.ts).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';

/** How long the opening handshake may take before the connection counts as failed. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

export class WebSocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private socket: WebSocket | undefined;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string> = {},
  ) {}

  start(): Promise<void> {
    if (this.socket) throw new Error('the WebSocket transport is already started');
    return new Promise<void>((resolve, reject) => {
      const socket = new WebSocket(this.url, 'mcp', { headers: this.headers, handshakeTimeout: HANDSHAKE_TIMEOUT_MS });
      this.socket = socket;
      let open = false;
      socket.on('open', () => {
        open = true;
        resolve();
      });
      // A refused upgrade: the status is the reason (a 401 wants credentials in `headers`).
      socket.on('unexpected-response', (_req, res) => {
        const err = Object.assign(new Error(`the server answered the WebSocket upgrade with HTTP ${res.statusCode}`), { code: res.statusCode });
        res.resume();
        socket.terminate();
        reject(err);
      });
      socket.on('error', (err) => {
        if (!open) reject(err);
        else this.onerror?.(err);
      });
      socket.on('close', () => this.onclose?.());
      socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) throw new Error('the WebSocket is not connected');
    await new Promise<void>((resolve, reject) => socket.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    this.socket?.close();
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) return void this.onerror?.(new Error('the server sent a binary WebSocket frame; MCP over WebSocket is JSON text'));
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(String(data)));
    } catch (err) {
      return void this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    this.onmessage?.(message);
  }
}
