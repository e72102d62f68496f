/** Hooks of type "mcp_tool" through the built binary: a tool of a connected MCP server (test/support/mcp-server.mjs) is called. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
type Body = { messages: Array<{ role: string; content: unknown }> };

async function configure(hooks: object): Promise<void> {
  await t.project.write('.mcp.json', JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } }));
  await t.project.write('.claude/settings.json', JSON.stringify({ hooks }));
}

describe('mcp_tool hooks', () => {
  it('a UserPromptSubmit hook calls the tool with the prompt filled in; its text becomes context for the model', async () => {
    await configure({
      UserPromptSubmit: [{ hooks: [{ type: 'mcp_tool', server: 'test', tool: 'echo', input: { text: 'seen ${prompt} in ${hook_event_name}' } }] }],
    });
    t.api.script(reply().text('noted'));
    expectExit(await t.run(['-p', 'ship it', '--output-format', 'json'], { timeoutMs: 30_000 }), 0);
    const first = t.api.messageRequests()[0]!.body as Body;
    expect(JSON.stringify(first.messages)).toContain('echo: seen ship it in UserPromptSubmit');
  });

  it('an error result, or a server that is not connected: a non-blocking error; the call goes on', async () => {
    await configure({
      PostToolUse: [
        {
          matcher: 'Write',
          hooks: [
            { type: 'mcp_tool', server: 'test', tool: 'fail' },
            { type: 'mcp_tool', server: 'ghost', tool: 'x' },
          ],
        },
      ],
    });
    t.api.script(reply().toolUse('Write', { file_path: t.project.path('b.txt'), content: 'beta\n' }), reply().text('done'));
    const r = await t.run(['-p', 'write b', '--permission-mode', 'acceptEdits'], { timeoutMs: 30_000 });
    expectExit(r, 0);
    expect(t.project.exists('b.txt')).toBe(true);
    expect(r.stderr).toContain(
      'PostToolUse hook "mcp_tool test/fail" [projectSettings] failed with non-blocking status code 1: the tool fail answered with an error: it broke',
    );
    expect(r.stderr).toContain('PostToolUse hook "mcp_tool ghost/x" [projectSettings] could not be run: the MCP server "ghost" is not connected');
  });
});
