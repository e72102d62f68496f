import { describe, expect, it } from 'vitest';
import { parseHooksConfig } from '../../../src/settings/hooks.js';
import { fillInput, type McpHookTarget } from '../../../src/hooks/run-mcp-tool.js';
import { bash, buildHooks, signal } from './helpers.js';

const parse = (hooks: unknown) => parseHooksConfig(hooks, 'projectSettings', '/p/.claude/settings.json', 'settings.json');

/** A fake set of servers: `calls` records each call; `answer` gives the result. */
function servers(
  answer: (tool: string, args: Record<string, unknown>) => { content?: Array<{ type: string; text?: string }>; isError?: boolean },
  connected = ['guard'],
) {
  const calls: Array<{ server: string; tool: string; args: Record<string, unknown> }> = [];
  const target: McpHookTarget = {
    async callTool(server, tool, args) {
      calls.push({ server, tool, args });
      if (!connected.includes(server)) throw new Error(`the MCP server "${server}" is not connected`);
      return answer(tool, args);
    },
  };
  return { calls, holder: { target } };
}

const hook = (extra: Record<string, unknown> = {}) => ({
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'check', ...extra }] }],
});

describe('mcp_tool handlers: parsing', () => {
  it('reads server, tool and input; refuses one without server or tool', () => {
    const { groups, warnings } = parse({
      Stop: [
        {
          hooks: [
            { type: 'mcp_tool', server: 'mem', tool: 'save', input: { id: '${session_id}' }, timeout: 20 },
            { type: 'mcp_tool', tool: 'x' },
            { type: 'mcp_tool', server: 's', tool: 't', input: 'nope' },
          ],
        },
      ],
    });
    expect(groups[0]!.hooks).toEqual([
      { type: 'mcp_tool', server: 'mem', tool: 'save', input: { id: '${session_id}' }, timeout: 20 },
      { type: 'mcp_tool', server: 's', tool: 't' },
    ]);
    expect(warnings).toEqual([
      'settings.json: hooks.Stop[0].hooks[1]: "server" must be a non-empty string; skipped',
      "settings.json: hooks.Stop[0].hooks[2].input must be an object of the tool's arguments; ignored",
    ]);
  });

  it('fills ${path} in string values, deep in objects and arrays; other values stay as they are', () => {
    const event = { session_id: 's1', tool_input: { file_path: '/a/b.ts', n: 3, o: { k: 1 } } };
    expect(
      fillInput(
        { path: '${tool_input.file_path}', note: 'in ${session_id}: ${tool_input.n} ${tool_input.o} [${missing.x}]', list: ['${session_id}', 7], keep: true },
        event,
      ),
    ).toEqual({
      path: '/a/b.ts',
      note: 'in s1: 3 {"k":1} []',
      list: ['s1', 7],
      keep: true,
    });
  });
});

describe('mcp_tool handlers: running through the gate', () => {
  it('calls the tool with the filled input; a JSON answer decides as a command hook would', async () => {
    const { calls, holder } = servers(() => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } }),
        },
      ],
    }));
    const { hooks } = buildHooks(hook({ input: { command: '${tool_input.command}', session: '${session_id}' } }), { mcp: holder });
    const out = await hooks.preToolUse(bash('rm -rf build'), signal);
    expect(out).toMatchObject({ kind: 'continue', decision: 'deny', reason: 'no rm here' });
    expect(calls).toEqual([{ server: 'guard', tool: 'check', args: { command: 'rm -rf build', session: 'sess-1' } }]);
  });

  it('plain text of a UserPromptSubmit tool becomes context', async () => {
    const { holder } = servers(() => ({ content: [{ type: 'text', text: 'the sprint ends Friday' }] }));
    const { hooks } = buildHooks(
      { UserPromptSubmit: [{ hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'recall', input: { q: '${prompt}' } }] }] },
      { mcp: holder },
    );
    expect(await hooks.userPromptSubmit('when is the deadline?', signal)).toMatchObject({
      additionalContext: expect.stringContaining('the sprint ends Friday'),
    });
  });

  it('a server that is not connected, an error result, or no servers at all: a non-blocking notice, nothing decided', async () => {
    for (const [server, holder, expected] of [
      ['other', servers(() => ({ content: [] })).holder, 'could not be run: the MCP server "other" is not connected'],
      [
        'guard',
        servers(() => ({ isError: true, content: [{ type: 'text', text: 'scanner crashed' }] })).holder,
        'failed with non-blocking status code 1: the tool check answered with an error: scanner crashed',
      ],
      ['guard', undefined, 'could not be run: the MCP server "guard" is not connected'],
    ] as const) {
      const { hooks } = buildHooks(hook({ server }), holder ? { mcp: holder } : {});
      expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
      expect(hooks.drainNotices()).toEqual([expect.stringContaining(expected)]);
    }
  });
});
