// What a can_use_tool request tells the SDK program besides the tool and its input, as Claude Code
// words it: the file a Bash command would write (blockedPath), the ask rule that forced the prompt
// (matchedAskRule), and for an MCP tool its server and where the server came from (mcpServer); the
// words a host shows (title, displayName, description) and whether it may offer "don't ask again".
import { createSdkMcpServer, tool, type CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject();

/** A canUseTool that records what it was told and allows. */
function recorder() {
  const seen: Array<{ tool: string; options: Parameters<CanUseTool>[2] }> = [];
  const canUseTool: CanUseTool = async (name, input, options) => {
    seen.push({ tool: name, options });
    return { behavior: 'allow', updatedInput: input };
  };
  return { seen, canUseTool };
}

describe('can_use_tool request fields', () => {
  it('a Bash command that writes a file names it as the blocked path; no ask rule, no MCP server', async () => {
    const made = t.project.path('made.txt');
    t.api.script(reply().toolUse('Bash', { command: `touch ${made}`, description: 'Create a file' }, { id: 'toolu_c1' }), reply().text('done'));
    const { seen, canUseTool } = recorder();
    const run = await sdkRun(t, 'Make it.', { canUseTool });
    expect(run.error).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.options.blockedPath).toBe(made);
    expect(seen[0]!.options.matchedAskRule).toBeUndefined();
    expect(seen[0]!.options.mcpServer).toBeUndefined();
    // The words a host shows: what the call will do, the tool's name, and the call's own description.
    expect(seen[0]!.options).toMatchObject({
      title: `Run the command: touch ${made}`,
      displayName: 'Bash',
      description: 'Create a file',
      toolUseID: 'toolu_c1',
    });
    // A rule could allow it: the host may offer "don't ask again".
    expect(seen[0]!.options.suppressAlwaysAllowRule).toBeUndefined();
  });

  it('an ask rule that forced the prompt rides as matchedAskRule, with its source', async () => {
    t.api.script(reply().toolUse('Bash', { command: 'git status', description: 'Status' }, { id: 'toolu_c2' }), reply().text('done'));
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { ask: ['Bash(git status)'] } }));
    const { seen, canUseTool } = recorder();
    await sdkRun(t, 'Status?', { canUseTool, settingSources: ['project'] });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.options.matchedAskRule).toEqual({ source: 'projectSettings', toolName: 'Bash', ruleContent: 'git status' });
    expect((seen[0]!.options as { decisionReasonType?: string }).decisionReasonType).toBe('rule');
    // Only a person may pass an ask rule: no "don't ask again" to offer.
    expect(seen[0]!.options.suppressAlwaysAllowRule).toBe(true);
    expect(seen[0]!.options.title).toBe('Run the command: git status');
  });

  it('an MCP tool names its server: source "sdk" for the program\'s own in-process server', async () => {
    const add = tool('add', 'Add two numbers', { a: z.number(), b: z.number() }, async (args) => ({
      content: [{ type: 'text' as const, text: String(args.a + args.b) }],
    }));
    const server = createSdkMcpServer({ name: 'calc', version: '1.0.0', tools: [add] });
    t.api.script(reply().toolUse('mcp__calc__add', { a: 2, b: 3 }, { id: 'toolu_c3' }), reply().text('5'));
    const { seen, canUseTool } = recorder();
    const run = await sdkRun(t, 'Add.', { canUseTool, mcpServers: { calc: server } });
    expect(run.result).toMatchObject({ subtype: 'success', result: '5' });
    expect(seen.map((s) => s.tool)).toEqual(['mcp__calc__add']);
    expect(seen[0]!.options.mcpServer).toEqual({ name: 'calc', source: 'sdk' });
    expect(seen[0]!.options).toMatchObject({ displayName: 'calc - add (MCP)', title: 'Use the tool add of the MCP server calc' });
  });
});
