// In-process MCP servers of the SDK program (createSdkMcpServer + tool()): reached through
// mcp_message, with the manifests the SDK captures and without them (wicket's own handshake), their
// tools offered as mcp__<server>__<tool> through the same gates as any MCP tool.
import { createSdkMcpServer, tool, type CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject();

/** A `calc` server whose `add` records its calls (and runs `onCall`). */
function calc(onCall?: () => void) {
  const calls: Array<{ a: number; b: number }> = [];
  const add = tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async (args) => {
    calls.push(args);
    onCall?.();
    return { content: [{ type: 'text' as const, text: String(args.a + args.b) }] };
  });
  return { calls, server: createSdkMcpServer({ name: 'calc', version: '1.0.0', tools: [add] }) };
}

const askAdd = () => t.api.script(reply().toolUse('mcp__calc__add', { a: 2, b: 3 }, { id: 'toolu_f1' }), reply().text('5 it is'));

describe('SDK MCP servers', () => {
  it('with the manifests: the tool is offered, allowed by a rule, and its call answered; a tool the server adds is listed again', async () => {
    askAdd();
    const { calls, server } = calc(() =>
      // The server says its tools changed (an mcp_message from the program): wicket lists them again.
      server.instance.tool('mul', 'Multiply two numbers', { a: z.number(), b: z.number() }, async () => ({ content: [] })),
    );
    const run = await sdkRun(t, 'Add 2 and 3.', { mcpServers: { calc: server }, allowedTools: ['mcp__calc__add'] });
    expect(run.error).toBeUndefined();
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    const init = run.messages.find((m) => m.type === 'system' && m.subtype === 'init') as any;
    expect(init.tools).toContain('mcp__calc__add');
    expect(init.mcp_servers).toEqual([expect.objectContaining({ name: 'calc', status: 'connected' })]);
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_f1'))).toContain('"5"');
    expect(run.result).toMatchObject({ subtype: 'success', result: '5 it is', permission_denials: [] });
    expect(JSON.stringify(t.api.messageRequests()[0]!.body)).not.toContain('mcp__calc__mul');
    expect(JSON.stringify(t.api.messageRequests()[1]!.body)).toContain('mcp__calc__mul');
  });

  it('without the manifests: wicket does the handshake through mcp_message; with no rule the call goes to canUseTool', async () => {
    askAdd();
    const { calls, server } = calc();
    const asked: string[] = [];
    const canUseTool: CanUseTool = async (name, input) => (asked.push(`${name} ${JSON.stringify(input)}`), { behavior: 'allow' });
    process.env.CLAUDE_AGENT_SDK_DISABLE_MCP_MANIFESTS = '1';
    try {
      const run = await sdkRun(t, 'Add 2 and 3.', { mcpServers: { calc: server }, canUseTool });
      expect(run.error).toBeUndefined();
    } finally {
      delete process.env.CLAUDE_AGENT_SDK_DISABLE_MCP_MANIFESTS;
    }
    expect(asked).toEqual(['mcp__calc__add {"a":2,"b":3}']);
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_f1'))).toContain('"5"');
  });

  it('denied by a rule: not offered to the model, and a call to it never reaches the program', async () => {
    askAdd();
    const { calls, server } = calc();
    const run = await sdkRun(t, 'Add 2 and 3.', { mcpServers: { calc: server }, disallowedTools: ['mcp__calc__add'] });
    expect(calls).toEqual([]);
    const first = t.api.messageRequests()[0]!.body as { tools?: Array<{ name: string }> };
    expect((first.tools ?? []).map((x) => x.name)).not.toContain('mcp__calc__add');
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_f1'))).toMatch(/No such tool: mcp__calc__add/);
    expect(run.result?.subtype).toBe('success');
  });
});
