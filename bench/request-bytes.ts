/**
 * Tokens for the same work, measured as request bytes through the built binary and the fake API:
 * the first request of a session with no MCP server and with three (the test MCP server three times,
 * 30 tools), with tool search as it is on Anthropic's API (ENABLE_TOOL_SEARCH=true: the fake API's
 * address counts as a gateway, where it is off unless set), and without it; and a 20-turn scripted
 * session (Read, Grep, Glob and Bash calls, then an answer). Claude Code 2.1.332's first request is
 * about 50 KB with its 12 tools: the target is at most half of it, MCP servers included.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { type FakeAnthropic, reply, startFakeAnthropic } from '../test/support/fake-anthropic-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'wicket.js');
const MCP_SERVER = path.join(ROOT, 'test', 'support', 'mcp-server.mjs');
const CLAUDE_CODE_FIRST_REQUEST = 50 * 1024;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const bytesOf = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

async function runOnce(server: FakeAnthropic, project: string, home: string, args: string[], env: Record<string, string> = {}): Promise<number[]> {
  const before = server.messageRequests().length;
  // Asynchronously: the fake API answers from this process.
  await promisify(execFile)(process.execPath, [BIN, ...args], {
    cwd: project,
    timeout: 120_000,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ANTHROPIC_API_KEY: 'bench',
      ANTHROPIC_BASE_URL: server.url,
      WICKET_HOME: path.join(home, '.wicket'),
      ...env,
    },
  });
  return server
    .messageRequests()
    .slice(before)
    .map((q) => bytesOf(q.body));
}

function withServers(project: string, n: number): void {
  const servers = Object.fromEntries(Array.from({ length: n }, (_, i) => [`server${i + 1}`, { command: process.execPath, args: [MCP_SERVER] }]));
  writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
}

async function main(): Promise<void> {
  const project = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-bytes-')));
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-bench-home-')));
  for (let i = 0; i < 5; i++) writeFileSync(path.join(project, `f${i}.ts`), `export const value${i} = ${i};\n`.repeat(40));
  const server = await startFakeAnthropic({ whenExhausted: 'done' });
  const on = { ENABLE_TOOL_SEARCH: 'true' };
  try {
    server.script(reply().text('hi'));
    const [none] = await runOnce(server, project, home, ['-p', 'hi'], on);
    withServers(project, 3);
    server.script(reply().text('hi'));
    const [three] = await runOnce(server, project, home, ['-p', 'hi'], on);
    server.script(reply().text('hi'));
    const [threeOff] = await runOnce(server, project, home, ['-p', 'hi'], { ENABLE_TOOL_SEARCH: 'false' });
    rmSync(path.join(project, '.mcp.json'));
    const calls: Array<[string, Record<string, unknown>]> = [];
    for (let i = 0; i < 19; i++) {
      const f = path.join(project, `f${i % 5}.ts`);
      const pick = i % 4;
      if (pick === 0) calls.push(['Read', { file_path: f }]);
      else if (pick === 1) calls.push(['Grep', { pattern: `value${i % 5}`, output_mode: 'content' }]);
      else if (pick === 2) calls.push(['Glob', { pattern: '**/*.ts' }]);
      else calls.push(['Bash', { command: `wc -l ${f}` }]);
    }
    for (const [name, input] of calls) server.script(reply().toolUse(name, input));
    server.script(reply().text('All five files export one value each.'));
    const session = await runOnce(server, project, home, ['-p', 'look around', '--allowedTools', 'Read,Grep,Glob,Bash'], on);
    const total = session.reduce((a, b) => a + b, 0);
    const half = CLAUDE_CODE_FIRST_REQUEST / 2;
    console.log(`first request, no MCP server:            ${kb(none!)}  (target <= ${kb(half)}, half of Claude Code's ~50 KB)`);
    console.log(`first request, 3 MCP servers (30 tools): ${kb(three!)}  (tool search on; target <= ${kb(half)})`);
    console.log(`the same without tool search:            ${kb(threeOff!)}`);
    console.log(`20-turn session: ${session.length} requests, ${kb(total)} in all, last ${kb(session.at(-1)!)}`);
    if (none! > half || three! > half) console.log('OVER TARGET');
  } finally {
    await server.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
