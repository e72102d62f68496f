/**
 * MCP tool calls that name files: held against the Read and Edit deny rules at the permission gate,
 * whatever the field is called, however deep it sits, and however the path is spelled. The server is
 * a real MCP server (test/support/mcp-file-server.mjs) over an in-memory transport; it reads and
 * writes whatever it is told to, so the gate is the only guard (bypassPermissions mode).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpTool } from '../../src/mcp/tool.js';
import type { McpCallResult, McpCallTarget } from '../../src/mcp/types.js';
import { parseRule } from '../../src/base/rule-parse.js';
import type { Tool } from '../../src/base/tool.js';
import { makeFileServer } from '../support/mcp-file-server.mjs';
import { assertNoLeak, gated, rulesFrom, type Gated } from './paths-harness.js';
import { DENY_RULES, keySpellings, makeWorld, otherDeniedFiles, PROJECT_FILES, spelled, spellingNames, type World } from './paths-world.js';

let w: World;
let g: Gated;
let client: Client;
let tools: Tool[];
let startCwd: string;

beforeAll(async () => {
  w = makeWorld();
  startCwd = process.cwd();
  process.chdir(w.project);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await makeFileServer().connect(a);
  client = new Client({ name: 'paths-test', version: '1.0.0' });
  await client.connect(b);
  const target: McpCallTarget = {
    callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as McpCallResult,
    validator: async () => undefined,
  };
  const listed = await client.listTools();
  tools = listed.tools.map((info) => mcpTool('files', info as never, target, { maxOutputChars: 100_000 }));
  g = gated({ tools, project: w.project, home: w.home, rules: rulesFrom(DENY_RULES, path.join(w.project, '.claude', 'settings.json')) });
});
afterAll(async () => {
  await client?.close();
  process.chdir(startCwd);
  w.cleanup();
});

async function attempt(route: string, tool: string, input: Record<string, unknown>) {
  const r = await g.call(`mcp__files__${tool}`, input);
  assertNoLeak(`mcp__files__${tool} ${route}`, input, r.text);
  return r;
}

const at = (list: Parameters<typeof spelled>[0], name: string) => spelled(list, w, name);

describe('an MCP tool reading a denied file, however spelled', () => {
  it.each(spellingNames(keySpellings))('path: the key file as %s', async (name) => {
    await attempt(`path ${name}`, 'read_file', { path: at(keySpellings, name) });
  });
  it.each(spellingNames(otherDeniedFiles))('path: %s', async (name) => {
    await attempt(`path ${name}`, 'read_file', { path: at(otherDeniedFiles, name) });
  });
  it('controls: harmless files are read, through the same spellings', async () => {
    for (const p of [
      'public/ok.txt',
      '/proc/self/cwd/public/ok.txt',
      path.join(w.outside, 'link-to-project', 'public', 'ok.txt'),
      '~/notes.txt'.replace('~', w.home),
    ]) {
      const { text } = await attempt(`control ${p}`, 'read_file', { path: p });
      expect(text).toMatch(/PUBLIC_(OK|HOME)/);
    }
  });
});

describe('every field that names a file counts', () => {
  const key = () => `${w.project}/secret/zq9-key.txt`;
  const cases: Array<[string, string, () => Record<string, unknown>]> = [
    ['paths (one of several)', 'read_many', () => ({ paths: ['public/ok.txt', 'secret/zq9-key.txt'] })],
    ['paths through /proc/self/cwd', 'read_many', () => ({ paths: ['/proc/self/cwd/secret/zq9-key.txt'] })],
    ['file:// URI', 'read_uri', () => ({ uri: `file://${key()}` })],
    ['file://localhost URI', 'read_uri', () => ({ uri: `file://localhost${key()}` })],
    ['FILE:// in capitals', 'read_uri', () => ({ uri: `FILE://${key()}` })],
    ['file:/ with one slash', 'read_uri', () => ({ uri: `file:${key()}` })],
    ['percent-escaped URI', 'read_uri', () => ({ uri: `file://${key().replace(/\//g, '%2F').replace(/^%2F/, '/')}` })],
    ['percent-escaped letters', 'read_uri', () => ({ uri: `file://${w.project}/s%65cret/zq9-key.txt` })],
    ['URI through /proc/self/cwd', 'read_uri', () => ({ uri: 'file:///proc/self/cwd/secret/zq9-key.txt' })],
    ['URI with .. ', 'read_uri', () => ({ uri: `file://${w.project}/public/../secret/zq9-key.txt` })],
    ['URI of ~/.ssh', 'read_uri', () => ({ uri: `file://${w.home}/.ssh/id_rsa` })],
    ['nested filename', 'inspect', () => ({ options: { target: { filename: 'secret/zq9-key.txt' } } })],
    ['nested file_path in a list', 'inspect', () => ({ options: { items: [{ note: 'x' }, { file_path: 'innocent/zq9-key.txt' }] } })],
    ['nested filePath (camelCase)', 'inspect', () => ({ options: { filePath: 'public/link-to-key.txt' } })],
    ['nested File-Path', 'inspect', () => ({ options: { 'File-Path': '.env' } })],
    ['nested source', 'inspect', () => ({ options: { source: '~/.ssh/id_rsa' } })],
    ['nested destination', 'inspect', () => ({ options: { destination: 'sub/.env' } })],
    ['a list of lists', 'inspect', () => ({ options: { paths: [['public/ok.txt'], ['certs/zq9-server.pem']] } })],
    ['a URI under any key', 'inspect', () => ({ options: { note: `file://${w.project}/MixedCase/zq9-case.txt`, uri: 'x' } })],
    ['the hard link', 'inspect', () => ({ options: { path: path.join(w.outside, 'hard-zq9.txt') } })],
    ['the NFD name in NFC', 'inspect', () => ({ options: { path: 'caf\u00e9/zq9-nfd.txt' } })],
  ];
  it.each(cases.map(([n]) => n))('%s', async (name) => {
    const [, tool, input] = cases.find(([n]) => n === name)!;
    const { outcome } = await attempt(name, tool, input());
    expect(outcome.result.isError, name).toBe(true);
    expect(outcome.trace.find((r) => r.gate === 'permission')?.verdict).toBe('denied');
  });
  it('a relative path resolves against the session’s working directory', async () => {
    const moved = gated({ tools, project: w.project, home: w.home, cwd: w.p('public'), rules: g.env.permission.rules });
    const input = { path: '../secret/zq9-key.txt' };
    const r = await moved.call('mcp__files__read_file', input);
    assertNoLeak('read_file relative to a moved cwd', input, r.text);
    expect(r.outcome.result.isError).toBe(true);
  });
});

describe('a tool that is not read-only is held against Edit deny rules too', () => {
  it('copy_file into a denied or Edit-denied folder is refused and writes nothing', async () => {
    for (const destination of ['readonly/copy.txt', '/proc/self/cwd/readonly/copy.txt', 'secret/copy.txt', 'innocent/copy.txt']) {
      const { outcome } = await attempt(`copy to ${destination}`, 'copy_file', { source: 'public/ok.txt', destination });
      expect(outcome.result.isError, destination).toBe(true);
    }
    expect(existsSync(w.p('readonly/copy.txt'))).toBe(false);
    expect(existsSync(w.p('secret/copy.txt'))).toBe(false);
  });
  it('copy_file out of a denied folder is refused, and write_file cannot overwrite a denied file', async () => {
    const out = await attempt('copy from secret', 'copy_file', { source: 'innocent/zq9-key.txt', destination: 'public/stolen.txt' });
    expect(out.outcome.result.isError).toBe(true);
    expect(existsSync(w.p('public/stolen.txt'))).toBe(false);
    const wr = await attempt('write secret', 'write_file', { file_path: '/proc/self/cwd/secret/zq9-key.txt', content: 'gone' });
    expect(wr.outcome.result.isError).toBe(true);
    expect(readFileSync(w.p('secret/zq9-key.txt'), 'utf8')).toBe(PROJECT_FILES['secret/zq9-key.txt']);
  });
  it('controls: a read-only tool may read under an Edit deny rule; a harmless copy works', async () => {
    const r = await attempt('read readonly', 'read_file', { path: 'readonly/edit-denied.txt' });
    expect(r.text).toContain('PUBLIC_READONLY');
    const c = await attempt('copy harmless', 'copy_file', { source: 'public/ok.txt', destination: 'public/copy.txt' });
    expect(c.outcome.result.isError).toBeFalsy();
    expect(readFileSync(w.p('public/copy.txt'), 'utf8')).toBe(PROJECT_FILES['public/ok.txt']);
  });
});

describe('path rules judge MCP calls for deny and ask only', () => {
  it('an allow rule on a path does not approve an MCP call; an ask rule on one still asks', async () => {
    const settings = path.join(w.project, '.claude', 'settings.json');
    const allowOnly = gated({
      tools,
      project: w.project,
      home: w.home,
      rules: { allow: [parseRule('Read(./**)', 'projectSettings', settings)], ask: [], deny: [] },
    });
    allowOnly.env.permission.mode = 'default';
    const allowed = await allowOnly.call('mcp__files__read_file', { path: 'public/ok.txt' });
    expect(allowed.outcome.trace.find((r) => r.gate === 'permission')?.verdict).toBe('denied');
    const asking = gated({
      tools,
      project: w.project,
      home: w.home,
      rules: { allow: [parseRule('mcp__files', 'projectSettings', settings)], ask: [parseRule('Read(./public/**)', 'projectSettings', settings)], deny: [] },
    });
    asking.env.permission.mode = 'default';
    const asked = await asking.call('mcp__files__read_file', { path: 'public/ok.txt' });
    expect(asked.outcome.trace.find((r) => r.gate === 'permission')?.detail).toMatch(/ask rule Read\(\.\/public\/\*\*\)/);
    const other = await asking.call('mcp__files__read_file', { path: 'src/main.ts' });
    expect(other.text).toContain('PUBLIC_SRC');
  });
});
