/** `wicket mcp …` through the built binary: Claude Code's MCP commands on the same files. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectExit, REPO_ROOT, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
let project: TmpProject;
beforeEach(async () => {
  project = await makeTmpProject({ files: {} });
});
afterEach(async () => {
  await project.cleanup();
});

const mcp = (...args: string[]) => runCli(['mcp', ...args], { cwd: project.dir, home: project.home, timeoutMs: 30_000 });
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const claudeJson = () => json(path.join(project.home, '.claude.json'));

describe('wicket mcp', () => {
  it('adds servers to the local, project and user configs, in Claude Code’s places', async () => {
    writeFileSync(path.join(project.home, '.claude.json'), JSON.stringify({ numStartups: 3, projects: { '/elsewhere': { x: 1 } } }));
    const local = await mcp('add', '-e', 'A=1', 'tools', '--', process.execPath, SERVER);
    expectExit(local, 0);
    expect(local.stdout).toContain(`Added stdio MCP server tools with command: ${process.execPath} ${SERVER} to local config`);
    expectExit(await mcp('add', '-s', 'project', '-t', 'http', '-H', 'Authorization: Bearer ${TOKEN}', 'remote', 'https://mcp.example.com/mcp'), 0);
    expectExit(await mcp('add-json', '-s', 'user', 'everywhere', JSON.stringify({ type: 'sse', url: 'https://example.com/sse' })), 0);
    expect(claudeJson()).toEqual({
      numStartups: 3,
      projects: {
        '/elsewhere': { x: 1 },
        [project.dir]: { mcpServers: { tools: { type: 'stdio', command: process.execPath, args: [SERVER], env: { A: '1' } } } },
      },
      mcpServers: { everywhere: { type: 'sse', url: 'https://example.com/sse' } },
    });
    expect(json(path.join(project.dir, '.mcp.json'))).toEqual({
      mcpServers: { remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } } },
    });
  });

  it('add names the flags that do not fit the transport, which the entry leaves out', async () => {
    const stdio = await mcp('add', '--client-id', 'abc', '-H', 'X: y', 'looks-remote', 'https://mcp.example.com/mcp');
    expectExit(stdio, 0);
    expect(stdio.stderr).toContain('Warning: --client-id and --callback-port only work with HTTP/SSE servers and are ignored for stdio.');
    expect(stdio.stderr).toContain('Warning: --header only works with HTTP/SSE servers and is ignored for stdio.');
    expect(stdio.stderr).toContain("looks like a URL, but is treated as a stdio server because --transport wasn't set.");
    const http = await mcp('add', '-t', 'http', '-e', 'A=1', 'remote', 'https://mcp.example.com/mcp');
    expectExit(http, 0);
    expect(http.stderr).toContain('Warning: --env only works with stdio servers and is ignored for HTTP/SSE.');
    expect(claudeJson().projects[project.dir].mcpServers).toEqual({
      'looks-remote': { type: 'stdio', command: 'https://mcp.example.com/mcp', args: [] },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
    });
  });

  it('list checks that each server connects; get shows one, with secrets hidden', async () => {
    expectExit(await mcp('add', '-e', 'SECRET=hunter2', 'tools', '--', process.execPath, SERVER), 0);
    expectExit(await mcp('add', '-s', 'project', 'broken', '--', process.execPath, SERVER, '--crash'), 0);
    const list = await mcp('list');
    expectExit(list, 0);
    expect(list.stdout).toContain(`tools: ${process.execPath} ${SERVER} - ✓ Connected`);
    expect(list.stdout).toMatch(/broken: .* - ✗ Failed to connect: .*cannot open the database/);
    const get = await mcp('get', 'tools');
    expectExit(get, 0);
    expect(get.stdout).toContain('Scope: Local config (this project, just you)');
    expect(get.stdout).toContain('Status: connected');
    expect(get.stdout).toContain('Tools: mcp__tools__echo, mcp__tools__add');
    expect(get.stdout).toContain('Env: SECRET=…');
    expect(get.stdout).not.toContain('hunter2');
  });

  it('refuses a duplicate, a bad name, a bad entry and bad JSON, changing nothing', async () => {
    expectExit(await mcp('add', 'a', 'cmd'), 0);
    const before = readFileSync(path.join(project.home, '.claude.json'), 'utf8');
    const dup = await mcp('add', 'a', 'other');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('an MCP server named a is already in the local config');
    expect((await mcp('add', 'bad name', 'cmd')).stderr).toContain('the name may hold only letters, digits');
    expect((await mcp('add-json', 'b', '{"type":"http"}')).stderr).toContain('that server entry cannot work: "url" is required');
    expect((await mcp('add-json', 'b', '{nope')).stderr).toContain('the JSON is not valid');
    expect(readFileSync(path.join(project.home, '.claude.json'), 'utf8')).toBe(before);
  });

  it('remove finds the scope, asks for one when the name is in several, and never rewrites a broken file', async () => {
    expectExit(await mcp('add', 'dup', 'one'), 0);
    expectExit(await mcp('add', '-s', 'project', 'dup', 'two'), 0);
    const both = await mcp('remove', 'dup');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('dup is in more than one config (local, project): pick one with -s');
    expectExit(await mcp('remove', 'dup', '-s', 'project'), 0);
    expect(json(path.join(project.dir, '.mcp.json'))).toEqual({ mcpServers: {} });
    expectExit(await mcp('remove', 'dup'), 0);
    expect(claudeJson().projects[project.dir].mcpServers).toEqual({});
    writeFileSync(path.join(project.dir, '.mcp.json'), '{ broken');
    const broken = await mcp('add', '-s', 'project', 'x', 'cmd');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('.mcp.json is not valid JSON');
    expect(readFileSync(path.join(project.dir, '.mcp.json'), 'utf8')).toBe('{ broken');
    expect(existsSync(path.join(project.dir, '.mcp.json'))).toBe(true);
  });
});
