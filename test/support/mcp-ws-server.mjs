// The test MCP server (mcp-server.mjs) over WebSocket: subprotocol "mcp", JSON-RPC as text frames,
// one server per connection. `token`: the upgrade needs `Authorization: Bearer <token>`.
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { WebSocketServer } from 'ws';
import { makeServer } from './mcp-server.mjs';

export async function startWsServer({ token } = {}) {
  const upgrades = [];
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    verifyClient: (info, done) => {
      upgrades.push({ authorization: info.req.headers.authorization, protocol: info.req.headers['sec-websocket-protocol'], team: info.req.headers['x-team'] });
      if (token && info.req.headers.authorization !== `Bearer ${token}`) done(false, 401, 'Unauthorized');
      else done(true);
    },
  });
  wss.on('connection', (socket) => {
    const transport = {
      async start() {},
      async send(message) {
        socket.send(JSON.stringify(message));
      },
      async close() {
        socket.close();
      },
    };
    socket.on('message', (data) => {
      try {
        transport.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(String(data))));
      } catch (err) {
        transport.onerror?.(err);
      }
    });
    socket.on('close', () => transport.onclose?.());
    void makeServer().connect(transport);
  });
  await new Promise((resolve) => wss.on('listening', resolve));
  return {
    url: `ws://127.0.0.1:${wss.address().port}/mcp`,
    upgrades,
    close: () =>
      new Promise((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}
