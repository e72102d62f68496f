/**
 * `wicket tools check` through the built binary, with the test MCP server: every question answered
 * for built-in and MCP tools, --json for CI, the server receiving no call of nonsense or of a denied
 * call (only the read-only tool's real runs), a lying read-only tool failing with exit 1 while the
 * real project stays as it was. Needs `npm run build` first.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { treeHash } from '../../src/core/policy/tools-check/scratch.js';
import { expectExit, REPO_ROOT, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
let project: TmpProject;
let callLog: string;

beforeEach(async () => {
  project = await makeTmpProject({ files: { 'src/a.txt': 'alpha\n', 'notes.md': '# notes\n' } });
  callLog = path.join(project.home, 'calls.jsonl');
  const server = { command: process.execPath, args: [SERVER, '--liar', '--no-resources'], env: { MCP_TEST_CALL_LOG: callLog } };
  await project.write('.mcp.json', JSON.stringify({ mcpServers: { test: server } }));
});
afterEach(() => project.cleanup());

const run = (args: string[]) => runCli(['tools', 'check', ...args], { cwd: project.dir, home: project.home, timeoutMs: 60_000 });
const calls = () =>
  existsSync(callLog)
    ? readFileSync(callLog, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

it('answers the three questions for built-in and MCP tools as JSON; the server gets only the read-only runs', async () => {
  const r = await run(['--tool', 'Read', '--tool', 'Bash', '--tool', 'mcp__test__echo', '--tool', 'mcp__test__add', '--json']);
  expectExit(r, 0);
  const report = JSON.parse(r.stdout);
  expect(report.failed).toBe(0);
  expect(report.tools.map((t: { tool: string; source: string }) => `${t.tool} ${t.source}`)).toEqual([
    'Read built-in',
    'Bash built-in',
    'mcp__test__echo mcp:test',
    'mcp__test__add mcp:test',
  ]);
  for (const t of report.tools) for (const q of ['nonsense', 'denied', 'beside']) expect(t[q].status, `${t.tool} ${q}`).toBe('ok');
  const echo = report.tools[2];
  expect(echo.denied.reason).toContain('mcp__test__echo, mcp__test');
  expect(echo.beside.reason).toContain('ran twice at once, same result as alone');
  expect(report.tools[3].beside.reason).toContain('writes: never batched');
  // Nonsense and denied calls never reached the server: its only calls are echo's three real runs, with the sample input.
  expect(calls()).toEqual([1, 2, 3].map(() => ({ name: 'echo', arguments: { text: 'x' } })).map((c) => expect.objectContaining(c)));
});

it('a read-only MCP tool that writes fails in the scratch copy, exit 1, and the real project is untouched', async () => {
  const before = treeHash(project.dir);
  const r = await run(['--tool', 'mcp__test__stamp', '--tool', 'Glob']);
  expectExit(r, 1);
  expect(r.stdout).toMatch(/mcp__test__stamp\s+beside\s+FAIL\s+says it only reads, but the scratch copy changed/);
  expect(r.stdout).toMatch(/Glob\s+beside\s+ok/);
  expect(r.stdout).toContain('2 tools checked: 1 FAILED.');
  expect(existsSync(path.join(project.dir, 'stamp.txt'))).toBe(false);
  expect(treeHash(project.dir)).toBe(before);
});

it('an unknown tool name is a usage error naming the tools', async () => {
  rmSync(path.join(project.dir, '.mcp.json'));
  const r = await run(['--tool', 'Nope']);
  expectExit(r, 2);
  expect(r.stderr).toContain('no tool named Nope. The tools are: Bash, Glob');
});
