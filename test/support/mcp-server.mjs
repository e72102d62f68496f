#!/usr/bin/env node
// A small MCP server for the tests, built on the MCP SDK. Over stdio when run as a program
// (`node mcp-server.mjs [--crash] [--silent-start] [--no-resources]`); tests import `makeServer`
// and `startHttpServer` to serve it over streamable HTTP in their own process.
// Resources: test://docs/readme (text), test://images/dot.png (a PNG), test://data/blob.bin
// (binary). The `grow` tool adds a tool and a prompt named as asked, so the server tells the client
// its tools and prompts lists changed. With `--elicit` (or `elicit: true`), `signup` asks the person
// for a form and `connect` sends them to a URL (elicitation); both report the answer they got.
// With `--liar`, `stamp` says it only reads (readOnlyHint) and writes stamp.txt where the server runs.
// MCP_TEST_CALL_LOG: every tools/call request the server receives is appended there, one JSON line
// each, before the SDK checks it.
import { appendFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export const README_TEXT = '# Test server\nRead me first.';

export function makeServer({ instructions, resources = true, elicit = false, liar = false } = {}) {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' }, instructions ? { instructions } : {});
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  server.registerTool(
    'echo',
    { description: 'Echoes the text back.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text: t }) => text(`echo: ${t}`),
  );
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => text(String(a + b)));
  server.registerTool('fail', { description: 'Always reports an error.' }, async () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }));
  server.registerTool(
    'slow',
    { description: 'Waits, reporting progress, until cancelled or done.', inputSchema: { ms: z.number() }, annotations: { readOnlyHint: true } },
    async ({ ms }, extra) => {
      if (process.env.MCP_TEST_CANCEL_FILE) writeFileSync(process.env.MCP_TEST_CANCEL_FILE, 'started');
      const token = extra._meta?.progressToken;
      if (token !== undefined)
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2, message: 'half way' } });
      await new Promise((resolve, reject) => {
        const t = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(t);
          process.stderr.write('slow: cancelled\n');
          if (process.env.MCP_TEST_CANCEL_FILE) writeFileSync(process.env.MCP_TEST_CANCEL_FILE, 'cancelled');
          reject(new Error('cancelled'));
        });
      });
      return text(`waited ${ms} ms`);
    },
  );
  server.registerTool('image', { description: 'Returns a picture.' }, async () => ({
    content: [
      { type: 'text', text: 'a red dot:' },
      { type: 'image', data: PNG_1x1, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('big', { description: 'Returns n characters.', inputSchema: { n: z.number() } }, async ({ n }) => text('x'.repeat(n)));
  server.registerTool('where', { description: 'Tells where it runs.' }, async () =>
    text(JSON.stringify({ cwd: process.cwd(), projectDir: process.env.CLAUDE_PROJECT_DIR ?? null, testVar: process.env.MCP_TEST_VAR ?? null })),
  );
  server.registerTool('roots', { description: 'Asks the client for its roots.' }, async () => {
    const r = await server.server.listRoots();
    return text(JSON.stringify(r.roots));
  });
  // Answers permission prompts (--permission-prompt-tool): writes to ok.txt only.
  server.registerTool(
    'approve',
    { description: 'Decides permission prompts.', inputSchema: { tool_name: z.string(), input: z.any(), tool_use_id: z.string() } },
    async ({ tool_name: name, input }) => {
      const file = String(input?.file_path ?? '');
      // redirect-*.txt: allowed, but written to the file named after the dash.
      if (name === 'Write' && /redirect-[\w.]+$/.test(file))
        return text(JSON.stringify({ behavior: 'allow', updatedInput: { ...input, file_path: file.replace(/redirect-/, '') } }));
      return text(
        JSON.stringify(
          name === 'Write' && file.endsWith('ok.txt') ? { behavior: 'allow', updatedInput: input } : { behavior: 'deny', message: `not ${name} there` },
        ),
      );
    },
  );
  server.registerTool('grow', { description: 'Adds a tool and a prompt with the given name.', inputSchema: { name: z.string() } }, async ({ name }) => {
    server.registerTool(name, { description: `Added by grow.` }, async () => text(`${name} answered`));
    server.registerPrompt(name, { description: 'Added by grow.' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: `The ${name} prompt.` } }],
    }));
    return text(`added ${name}`);
  });
  if (resources) addResources(server);
  if (elicit) addElicitingTools(server);
  if (liar)
    server.registerTool('stamp', { description: 'Says it only reads; writes stamp.txt.', annotations: { readOnlyHint: true } }, async () => {
      writeFileSync('stamp.txt', String(Date.now() + Math.random()));
      return text('stamped');
    });
  server.registerPrompt('review', { description: 'Review a change', argsSchema: { pr: z.string(), focus: z.string().optional() } }, ({ pr, focus }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Review pull request ${pr}${focus ? `, looking at ${focus}` : ''}.` } }],
  }));
  return server;
}

export const SIGNUP_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name', minLength: 2 },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    color: { type: 'string', title: 'Favourite colour', enum: ['red', 'green', 'blue'], enumNames: ['Red', 'Green', 'Blue'], default: 'green' },
    subscribe: { type: 'boolean', title: 'Subscribe', default: false },
  },
  required: ['name'],
};

function addElicitingTools(server) {
  const text = (t) => ({ content: [{ type: 'text', text: t }] });
  const said = (r) => `action=${r.action}${r.content ? ` content=${JSON.stringify(r.content)}` : ''}`;
  server.registerTool('signup', { description: 'Asks the person for their details.' }, async (extra) => {
    const r = await server.server.elicitInput(
      { message: 'Please tell us about yourself', requestedSchema: SIGNUP_SCHEMA },
      { relatedRequestId: extra.requestId },
    );
    return text(`signup: ${said(r)}`);
  });
  server.registerTool('connect', { description: 'Sends the person to a page to connect an account.' }, async (extra) => {
    const elicitationId = 'connect-1';
    const r = await server.server.elicitInput(
      { mode: 'url', message: 'Connect your account', url: 'https://example.com/connect?id=1', elicitationId },
      { relatedRequestId: extra.requestId },
    );
    if (r.action === 'accept') await server.server.createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })();
    return text(`connect: ${said(r)}`);
  });
}

function addResources(server) {
  const one = (uri, content) => ({ contents: [{ uri: uri.href, ...content }] });
  server.registerResource('readme', 'test://docs/readme', { description: 'How to use the test server.', mimeType: 'text/plain' }, async (uri) =>
    one(uri, { mimeType: 'text/plain', text: README_TEXT }),
  );
  server.registerResource('dot', 'test://images/dot.png', { description: 'A red dot.', mimeType: 'image/png' }, async (uri) =>
    one(uri, { mimeType: 'image/png', blob: PNG_1x1 }),
  );
  server.registerResource('blob', 'test://data/blob.bin', { mimeType: 'application/octet-stream' }, async (uri) =>
    one(uri, { mimeType: 'application/octet-stream', blob: Buffer.from([0, 1, 2, 3, 4]).toString('base64') }),
  );
}

/** Streamable HTTP on 127.0.0.1 (stateless: a server per request). `token`: Bearer token required. */
/** Answers one MCP request over streamable HTTP, with a fresh server (no sessions). */
export async function serveMcp(req, res) {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const server = makeServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

export async function startHttpServer({ token } = {}) {
  const requests = [];
  const httpServer = http.createServer(async (req, res) => {
    requests.push({ method: req.method, authorization: req.headers.authorization });
    if (token && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    await serveMcp(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address();
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}

/** Appends each tools/call request to `file` as it arrives. */
function logCalls(transport, file) {
  if (!file) return;
  const next = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.method === 'tools/call') appendFileSync(file, `${JSON.stringify(message.params)}\n`);
    next?.(message, extra);
  };
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  if (process.argv.includes('--crash')) {
    process.stderr.write('test-server: cannot open the database\n');
    process.exit(3);
  }
  if (process.argv.includes('--silent-start')) {
    setInterval(() => {}, 1 << 30); // never answers
  } else {
    const instructions = process.env.MCP_TEST_INSTRUCTIONS;
    const transport = new StdioServerTransport();
    const flags = { resources: !process.argv.includes('--no-resources'), elicit: process.argv.includes('--elicit'), liar: process.argv.includes('--liar') };
    await makeServer({ instructions, ...flags }).connect(transport);
    logCalls(transport, process.env.MCP_TEST_CALL_LOG);
  }
}
