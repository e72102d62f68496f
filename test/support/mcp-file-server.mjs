#!/usr/bin/env node
// A stdio MCP server whose tools read and write files, as a filesystem server does, for the tests
// that hold deny rules against MCP calls (`node mcp-file-server.mjs`). It reads whatever it is told
// to, relative paths against its own working directory: only wicket's gate stands in the way.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const read = (p) => {
  try {
    return readFileSync(p.startsWith('file:') ? fileURLToPath(p) : p, 'utf8');
  } catch (err) {
    return `cannot read ${p}: ${err.code ?? err.message}`;
  }
};
/** Every string under a key named like a path, anywhere in the arguments. */
const pathsIn = (value, key = '') =>
  typeof value === 'string'
    ? /path|file|uri|source|dest/i.test(key)
      ? [value]
      : []
    : Array.isArray(value)
      ? value.flatMap((v) => pathsIn(v, key))
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => pathsIn(v, k))
        : [];

export function makeFileServer() {
  const server = new McpServer({ name: 'file-server', version: '1.0.0' });
  const readOnly = { readOnlyHint: true };
  server.registerTool('read_file', { description: 'Reads a file.', inputSchema: { path: z.string() }, annotations: readOnly }, async ({ path }) =>
    text(read(path)),
  );
  server.registerTool('read_many', { description: 'Reads files.', inputSchema: { paths: z.array(z.string()) }, annotations: readOnly }, async ({ paths }) =>
    text(paths.map(read).join('\n')),
  );
  server.registerTool('read_uri', { description: 'Reads a file:// URI.', inputSchema: { uri: z.string() }, annotations: readOnly }, async ({ uri }) =>
    text(read(uri)),
  );
  server.registerTool(
    'inspect',
    { description: 'Reads every file named anywhere in its options.', inputSchema: { options: z.any() }, annotations: readOnly },
    async (args) => text(pathsIn(args).map(read).join('\n')),
  );
  server.registerTool(
    'copy_file',
    { description: 'Copies a file.', inputSchema: { source: z.string(), destination: z.string() } },
    async ({ source, destination }) => {
      copyFileSync(source, destination);
      return text(`copied ${source} to ${destination}`);
    },
  );
  server.registerTool(
    'write_file',
    { description: 'Writes a file.', inputSchema: { file_path: z.string(), content: z.string() } },
    async ({ file_path: p, content }) => {
      writeFileSync(p, content);
      return text(`wrote ${p}`);
    },
  );
  return server;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await makeFileServer().connect(new StdioServerTransport());
}
