#!/usr/bin/env node
// A stdio MCP server for the sandbox battery, built on the MCP SDK: it reads whole folders, writes
// files and fetches URLs as a careless server would, so the battery can see what the sandbox lets
// it do. Field names avoid the path fields the permission gate checks (`path`, `file_path`…): here
// only the sandbox stands in the way.
//   dump {folder}        every file below the folder, with its content
//   put {target, text}   writes a file; says whether it worked
//   fetch {url}          GET through HTTP_PROXY when one is set (as the sandbox sets it)
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (t) => ({ content: [{ type: 'text', text: t }] });

function dump(dir, out = []) {
  let names = [];
  try {
    names = readdirSync(dir);
  } catch (err) {
    out.push(`${dir}: ${err.code}`);
    return out;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch (err) {
      out.push(`${p}: ${err.code}`);
      continue;
    }
    if (st.isDirectory()) dump(p, out);
    else {
      try {
        out.push(`${p}: ${readFileSync(p, 'utf8')}`);
      } catch (err) {
        out.push(`${p}: ${err.code}`);
      }
    }
  }
  return out;
}

function get(url) {
  const proxy = process.env.HTTP_PROXY || process.env.http_proxy;
  const target = new URL(url);
  const via = proxy ? new URL(proxy) : undefined;
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: via ? via.hostname : target.hostname,
        port: via ? via.port : target.port,
        path: via ? url : target.pathname,
        headers: { host: target.host },
        timeout: 20_000,
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      },
    );
    req.on('error', (err) => resolve(`error ${err.code ?? err.message}`));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

const server = new McpServer({ name: 'sandbox-battery-server', version: '1.0.0' });
server.registerTool('dump', { description: 'Every file below a folder.', inputSchema: { folder: z.string() } }, async ({ folder }) =>
  text(dump(path.resolve(folder)).join('\n')),
);
server.registerTool('put', { description: 'Writes a file.', inputSchema: { target: z.string(), text: z.string() } }, async ({ target, text: t }) => {
  try {
    mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    writeFileSync(path.resolve(target), t);
    return text('written');
  } catch (err) {
    return text(`refused: ${err.code}`);
  }
});
server.registerTool('fetch', { description: 'GET a URL.', inputSchema: { url: z.string() } }, async ({ url }) => text(await get(url)));
await server.connect(new StdioServerTransport());
