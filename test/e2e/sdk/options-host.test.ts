// What the SDK program hands over beyond the prompt, through the real SDK against the built wicket:
// initialize's extra fields (applied, refused, or said once), the flags the SDK writes for managed
// settings, permission prompts and thinking display, onElicitation, hook outputs, and the Query
// methods that change the next turn.
import path from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { REPO_ROOT } from '../../support/run-cli.js';
import { collect, PromptFeed, sdkQuery, sdkRun, userMessage } from '../../support/sdk-harness.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
const bodies = () => t.api.messageRequests().map((r) => r.body as Record<string, any>);
const toolNames = (b: Record<string, any>) => (b.tools ?? []).map((x: { name: string }) => x.name) as string[];

describe('what the SDK program hands over', () => {
  it('initialize: plugins are loaded; fields wicket does not act on are said once on stderr; toolAliases refuses the session', async () => {
    const plugin = t.project.path('plug');
    mkdirSync(`${plugin}/.claude-plugin`, { recursive: true });
    writeFileSync(`${plugin}/.claude-plugin/plugin.json`, JSON.stringify({ name: 'plug', version: '1.0.0' }));
    t.api.script(reply().text('with plugin'), reply().text('said'), reply().text('all'));
    const { q, stderr } = sdkQuery(t, 'hi', { plugins: [{ type: 'local', path: plugin }], pluginDelivery: 'initialize' });
    const init = (await q.initializationResult()) as unknown as Record<string, unknown>;
    const run = await collect(q, stderr);
    expect(init.plugins_applied).toBe(true);
    expect((run.messages[0] as any).plugins).toEqual([expect.objectContaining({ name: 'plug', path: plugin })]);

    const said = await sdkRun(t, 'hi', { planModeInstructions: 'PLAN', promptSuggestions: true, skills: ['pdf'] });
    expect(said.result?.result).toBe('said');
    for (const field of ['planModeInstructions', 'promptSuggestions', 'skills']) expect(said.stderr.split(`initialize.${field}`).length - 1, field).toBe(1);
    expect((await sdkRun(t, 'hi', { skills: 'all' })).stderr).not.toContain('initialize.skills');

    const aliased = await sdkRun(t, 'hi', { toolAliases: { Bash: 'mcp__box__bash' } });
    expect(aliased.error?.message).toContain('initialize.toolAliases is not available in wicket');
    expect(aliased.stderr).not.toContain('unexpected error');
    expect(t.api.messageRequests()).toHaveLength(3);
  });

  it('managedSettings deny a tool; the client app is in the User-Agent; permissionPrompts none refuses what would ask without asking canUseTool; thinking display is said', async () => {
    t.api.script(
      reply().text('managed'),
      reply().toolUse('Bash', { command: 'touch made.txt' }, { id: 'toolu_n' }),
      reply().text('refused'),
      reply().text('thought'),
    );
    const managed = await sdkRun(t, 'hi', { managedSettings: { permissions: { deny: ['Grep'] } }, env: { CLAUDE_AGENT_SDK_CLIENT_APP: 'my-app/1.0' } });
    expect(managed.result?.subtype).toBe('success');
    // The program names itself in the User-Agent, after the SDK, as with Claude Code.
    expect(t.api.messageRequests()[0]!.headers['user-agent']).toMatch(/^wicket\/\S+ \(sdk-ts, agent-sdk\/[\d.]+, client-app\/my-app\/1\.0\)$/);
    expect(toolNames(bodies()[0]!)).not.toContain('Grep');
    expect(toolNames(bodies()[0]!)).toContain('Read');

    const asked: string[] = [];
    const none = await sdkRun(t, 'make it', {
      permissionPrompts: 'none',
      canUseTool: async (name, input) => (asked.push(name), { behavior: 'allow', updatedInput: input }),
    });
    expect(asked).toEqual([]);
    expect(t.project.exists('made.txt')).toBe(false);
    expect(toolResultIn(bodies()[2], 'toolu_n')).toMatchObject({ is_error: true });
    expect(none.result!.permission_denials).toHaveLength(1);

    const display = await sdkRun(t, 'think', { thinking: { type: 'enabled', budgetTokens: 1024, display: 'summarized' } });
    expect(display.result?.result).toBe('thought');
    expect(bodies()[3]!.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(display.stderr).toContain('--thinking-display summarized is not applied');
  });

  it('onElicitation answers an MCP server’s form; without it the SDK declines', async () => {
    const mcpServers = { forms: { command: process.execPath, args: [SERVER, '--elicit', '--no-resources'] } };
    const call = () => reply().toolUse('mcp__forms__signup', {}, { id: 'toolu_f' });
    t.api.script(call(), reply().text('signed up'), call(), reply().text('declined'));
    const seen: Array<Record<string, unknown>> = [];
    const answered = await sdkRun(t, 'sign up', {
      mcpServers,
      allowedTools: ['mcp__forms'],
      onElicitation: async (req) => (seen.push(req as never), { action: 'accept', content: { name: 'Ada' } }),
    });
    expect(answered.result?.result).toBe('signed up');
    expect(seen[0]).toMatchObject({ serverName: 'forms', message: 'Please tell us about yourself', mode: 'form' });
    expect(JSON.stringify(toolResultIn(bodies()[1], 'toolu_f'))).toContain('action=accept content={\\"name\\":\\"Ada\\"');
    await sdkRun(t, 'sign up', { mcpServers, allowedTools: ['mcp__forms'] });
    expect(JSON.stringify(toolResultIn(bodies()[3], 'toolu_f'))).toContain('action=decline');
  });

  it('hook outputs: SessionStart context reaches the model; PreToolUse updatedInput runs instead; a systemMessage is shown', async () => {
    t.api.script(reply().toolUse('Bash', { command: 'echo ORIGINAL' }, { id: 'toolu_h' }), reply().text('done'));
    const started: string[] = [];
    const run = await sdkRun(t, 'run it', {
      allowedTools: ['Bash'],
      hooks: {
        SessionStart: [
          {
            hooks: [
              async (i: any) => (started.push(i.source), { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'SESSION-CONTEXT' } }),
            ],
          },
        ],
        UserPromptSubmit: [{ hooks: [async () => ({ systemMessage: 'SHOWN-TO-THE-USER' })] }],
        PreToolUse: [
          {
            hooks: [
              async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo REWRITTEN' } } }),
            ],
          },
        ],
      },
    });
    expect(run.result?.result).toBe('done');
    expect(started).toEqual(['startup']);
    expect(JSON.stringify(bodies()[0]!.messages)).toContain('SESSION-CONTEXT');
    expect(JSON.stringify(toolResultIn(bodies()[1], 'toolu_h'))).toContain('REWRITTEN');
    expect(JSON.stringify(run.messages.filter((m) => m.type === 'system'))).toContain('SHOWN-TO-THE-USER');
  });

  it('Query methods for the next turn: setModel() goes back to the default, setMaxThinkingTokens(0) turns thinking off (a display is said unapplied), streamInput feeds turns', async () => {
    t.api.script(reply().text('one'), reply().text('two'));
    const feed = new PromptFeed();
    const { q, stderr } = sdkQuery(t, feed, { model: 'opus', maxThinkingTokens: 2048 });
    let results = 0;
    let firstResult!: () => void;
    const firstDone = new Promise<void>((r) => (firstResult = r));
    const done = collect(q, stderr, (m) => {
      if (m.type === 'result' && ++results === 1) firstResult();
    });
    // streamInput ends the input when its stream ends: the second turn comes from the same stream.
    await q.streamInput(
      (async function* () {
        yield userMessage('first');
        await firstDone;
        await q.setModel();
        await q.setMaxThinkingTokens(0, 'omitted');
        yield userMessage('second');
      })(),
    );
    feed.end();
    const run = await done;
    expect(run.error).toBeUndefined();
    const [first, second] = bodies();
    expect(first!.model).toMatch(/opus/);
    expect(first!.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(second!.model).toBe('claude-sonnet-4-6');
    expect(second!.thinking).toBeUndefined();
    expect(JSON.stringify(second!.messages)).toContain('first');
    const said = run.messages.find((m: any) => m.type === 'system' && m.subtype === 'informational') as any;
    expect(said?.content).toContain('thinking display "omitted" is not applied');
  });
});

describe('answers the program gives in other forms', () => {
  it('permissionPromptToolName: an in-process MCP tool answers what would ask (allow with a rewrite, then deny)', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const answers = [
      { behavior: 'allow', updatedInput: { command: 'touch rewritten.txt' } },
      { behavior: 'deny', message: 'Not this one.' },
    ];
    const approve = tool(
      'approve',
      'Answers permission prompts',
      { tool_name: z.string(), input: z.any(), tool_use_id: z.string().optional() },
      async (args) => {
        asked.push(args);
        return { content: [{ type: 'text', text: JSON.stringify(answers.shift()) }] };
      },
    );
    t.api.script(
      reply().toolUse('Bash', { command: 'touch asked.txt' }, { id: 'toolu_1' }),
      reply().toolUse('Bash', { command: 'touch denied.txt' }, { id: 'toolu_2' }),
      reply().text('done'),
    );
    const run = await sdkRun(t, 'make files', {
      mcpServers: { perm: createSdkMcpServer({ name: 'perm', version: '1.0.0', tools: [approve] }) },
      permissionPromptToolName: 'mcp__perm__approve',
    });
    expect(run.result).toMatchObject({ subtype: 'success', result: 'done' });
    expect(asked.map((a) => [a.tool_name, a.tool_use_id])).toEqual([
      ['Bash', 'toolu_1'],
      ['Bash', 'toolu_2'],
    ]);
    expect(['asked.txt', 'rewritten.txt', 'denied.txt'].map((f) => t.project.exists(f))).toEqual([false, true, false]);
    expect(JSON.stringify(toolResultIn(bodies()[2], 'toolu_2'))).toContain('Not this one.');
  });

  it('outputFormat: a model that never gives the structured output ends in error_max_structured_output_retries', async () => {
    t.api.script(reply().text('no tool'), reply().text('still none'), reply().text('never'));
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const run = await sdkRun(t, 'count', { outputFormat: { type: 'json_schema', schema } });
    expect(run.result).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true });
    expect(run.error?.message).toMatch(/^Claude Code returned an error result: /);
    expect(t.api.messageRequests()).toHaveLength(3);
  });
});
