/**
 * An Agent SDK host's in-process MCP server reached through the control transport: the handshake
 * through the link (or answered from the manifest), calls, errors, cancels, and the server's own
 * messages coming back.
 */
import { describe, expect, it } from 'vitest';
import type { ControlLink } from '../../../src/mcp/control-transport.js';
import { connectSdkServer } from '../../../src/mcp/sdk-server.js';

const initializeResult = { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'calc', version: '1.0.0' } };
const addTool = {
  name: 'add',
  description: 'Add two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
};

type Msg = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: any };

/** A host that answers like the Agent SDK's in-process server; `sent` records every message the client sent. */
function host(over: Partial<Record<string, (m: Msg, signal: AbortSignal) => unknown>> = {}) {
  const sent: Msg[] = [];
  let tools = [addTool];
  let toServer: ((m: unknown) => Promise<unknown>) | undefined;
  const answers: Record<string, (m: Msg, signal: AbortSignal) => unknown> = {
    initialize: () => ({ result: initializeResult }),
    'tools/list': () => ({ result: { tools } }),
    'tools/call': (m) => ({ result: { content: [{ type: 'text', text: String(m.params.arguments.a + m.params.arguments.b) }] } }),
    ...over,
  };
  const link: ControlLink = {
    async send(message, signal) {
      const m = message as Msg;
      sent.push(m);
      if (m.id === undefined) return { jsonrpc: '2.0', result: {}, id: 0 }; // as the SDK answers a notification
      const answer = await answers[m.method!]!(m, signal);
      return { jsonrpc: '2.0', id: m.id, ...(answer as object) };
    },
    listen(receive) {
      toServer = receive;
    },
  };
  return {
    link,
    sent,
    setTools: (t: (typeof addTool)[]) => (tools = t),
    fromServer: (m: unknown) => toServer!(m),
  };
}

const opts = { projectRoot: '/tmp/project', env: {}, timeoutMs: 5000, toolTimeoutMs: 5000, version: '1.0.0' };
const call = (signal = new AbortController().signal) => ({ signal, onProgress: () => {} });

describe('the control transport', () => {
  it('without a manifest: initialize, notifications/initialized and tools/list go through the link, then the calls', async () => {
    const h = host();
    const conn = await connectSdkServer({ name: 'calc', link: h.link }, opts);
    expect(conn.tools.map((t) => t.name)).toEqual(['add']);
    expect(await conn.callTool('add', { a: 2, b: 3 }, call())).toEqual({ content: [{ type: 'text', text: '5' }] });
    expect(h.sent.map((m) => m.method)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(h.sent[0]!.params.clientInfo).toMatchObject({ name: 'wicket' });
    expect(h.sent[3]!.params).toMatchObject({ name: 'add', arguments: { a: 2, b: 3 } });
    await conn.close();
  });

  it('with a manifest: the handshake and the first list are answered from it; only the call travels', async () => {
    const h = host();
    const manifest = { initializeResult, toolsListResult: { tools: [addTool] } };
    const conn = await connectSdkServer({ name: 'calc', link: h.link, manifest }, opts);
    expect(conn.tools.map((t) => t.name)).toEqual(['add']);
    await conn.callTool('add', { a: 1, b: 1 }, call());
    expect(h.sent.map((m) => m.method)).toEqual(['tools/call']);
    await conn.close();
  });

  it('a link that fails, or a reply that is not the answer, is an error for that call only', async () => {
    const h = host({
      'tools/call': (m) => {
        if (m.params.arguments.a === 0) throw new Error('SDK MCP server not found: calc');
        return { result: 'nonsense', id: 'other' };
      },
    });
    const conn = await connectSdkServer({ name: 'calc', link: h.link }, opts);
    await expect(conn.callTool('add', { a: 0, b: 1 }, call())).rejects.toThrow('SDK MCP server not found: calc');
    await expect(conn.callTool('add', { a: 1, b: 1 }, call())).rejects.toThrow(/gave no answer to the request/);
    await conn.close();
  });

  it('a call the client gives up on withdraws its request', async () => {
    let withdrawn = false;
    const h = host({
      'tools/call': (_m, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            withdrawn = true;
            reject(new Error('cancelled'));
          }),
        ),
    });
    const conn = await connectSdkServer({ name: 'calc', link: h.link }, opts);
    const abort = new AbortController();
    const pending = conn.callTool('add', { a: 1, b: 2 }, call(abort.signal));
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await expect(pending).rejects.toThrow();
    expect(withdrawn).toBe(true);
    await conn.close();
  });

  it("the server's own messages: a list_changed lists the tools again, a request gets the client's reply", async () => {
    const h = host();
    const manifest = { initializeResult, toolsListResult: { tools: [addTool] } };
    const conn = await connectSdkServer({ name: 'calc', link: h.link, manifest }, opts);
    const changed = new Promise((r) => conn.onListChanged(r));
    h.setTools([addTool, { ...addTool, name: 'mul' }]);
    expect(await h.fromServer({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
    expect(await changed).toBe('tools');
    expect(conn.tools.map((t) => t.name)).toEqual(['add', 'mul']);
    expect(await h.fromServer({ jsonrpc: '2.0', id: 'r1', method: 'roots/list' })).toEqual({
      jsonrpc: '2.0',
      id: 'r1',
      result: { roots: [{ uri: 'file:///tmp/project', name: 'project' }] },
    });
    await expect(h.fromServer({ nonsense: true })).rejects.toThrow('not a JSON-RPC request or notification');
    await conn.close();
    await expect(h.fromServer({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })).rejects.toThrow('closed');
  });

  it('a server that does not answer the handshake in time fails with MCP_TIMEOUT named', async () => {
    const h = host({ initialize: () => new Promise(() => {}) });
    await expect(connectSdkServer({ name: 'calc', link: h.link }, { ...opts, timeoutMs: 200 })).rejects.toThrow(
      /did not finish starting within 0 s \(MCP_TIMEOUT\)/,
    );
  });
});
