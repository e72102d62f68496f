// The Agent SDK drives the built wicket: a text answer, partial messages, the system prompt forms
// and agents that travel in initialize, a retry, and a 400.
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkQuery, sdkRun, systemText } from '../../support/sdk-harness.js';

const t = useApiAndProject();
const SDK_LINE = "You are a Claude agent, built on Anthropic's Claude Agent SDK.";
/** The first words of wicket's own system prompt. */
const WICKET_PROMPT = /You are wicket, a coding agent/;

describe('the Agent SDK drives wicket', () => {
  it('a text answer: init, assistant, a complete result; the API got the SDK default prompt, not wicket’s', async () => {
    t.api.script(reply().text('Hello from the fake server.'));
    const run = await sdkRun(t, 'Say hello.');
    expect(run.error).toBeUndefined();
    expect(run.kinds).toEqual(['system/init', 'assistant', 'result/success']);
    const init = run.messages[0] as any;
    expect(init).toMatchObject({ cwd: t.project.dir, permissionMode: 'default', mcp_servers: [], output_style: 'default' });
    expect(init.tools).toEqual(expect.arrayContaining(['Bash', 'Read', 'Edit', 'Write']));
    expect(init.agents).toEqual(expect.arrayContaining(['general-purpose', 'Explore']));
    expect(run.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      result: 'Hello from the fake server.',
      num_turns: 1,
      stop_reason: 'end_turn',
      terminal_reason: 'completed',
      permission_denials: [],
      session_id: init.session_id,
    });
    for (const k of ['duration_ms', 'duration_api_ms', 'total_cost_usd', 'usage', 'modelUsage', 'uuid']) expect(run.result).toHaveProperty(k);
    const [body] = t.api.messageRequests().map((r) => r.body);
    expect(systemText(body!).startsWith(SDK_LINE)).toBe(true);
    expect(systemText(body!)).not.toMatch(WICKET_PROMPT);
    expect(JSON.stringify(body!.messages)).toContain('Say hello.');
    expect(run.stderr).toBe('');
  });

  it('partial messages: the raw stream events come as stream_event, with the whole assistant message', async () => {
    t.api.script(reply().text('Hello ').text('there.'));
    const run = await sdkRun(t, 'Say hello.', { includePartialMessages: true });
    const events = run.messages.filter((m) => m.type === 'stream_event').map((m: any) => m.event);
    expect(events[0].type).toBe('message_start');
    expect(events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text)).toEqual(['Hello ', 'there.']);
    expect(events.at(-1).type).toBe('message_stop');
    expect(run.kinds.filter((k) => k !== 'stream_event')).toEqual(['system/init', 'assistant', 'result/success']);
    expect(run.result?.result).toBe('Hello there.');
  });

  it('one assistant message per content block, as soon as it is whole: same message.id, stop_reason null; the result has the turn', async () => {
    await t.project.write('a.txt', 'alpha\n');
    await t.project.write('b.txt', 'beta\n');
    t.api.script(
      reply()
        .text('Reading both.')
        .toolUse('Read', { file_path: t.project.path('a.txt') }, { id: 'toolu_a' })
        .toolUse('Read', { file_path: t.project.path('b.txt') }, { id: 'toolu_b' }),
      reply().text('Both read.'),
    );
    const run = await sdkRun(t, 'Read a and b.', { includePartialMessages: true });
    const assistants = run.messages.filter((m) => m.type === 'assistant') as any[];
    expect(assistants.map((m) => m.message.content.map((b: any) => b.type))).toEqual([['text'], ['tool_use'], ['tool_use'], ['text']]);
    expect(assistants.map((m) => m.message.content[0].id ?? m.message.content[0].text)).toEqual(['Reading both.', 'toolu_a', 'toolu_b', 'Both read.']);
    const [first, second, third, last] = assistants;
    expect(new Set([first.message.id, second.message.id, third.message.id]).size).toBe(1);
    expect(last.message.id).not.toBe(first.message.id);
    for (const m of assistants) expect(m.message).toMatchObject({ type: 'message', role: 'assistant', stop_reason: null, stop_sequence: null });
    // The usage known when the block ended (message_start's); the turn's total is the result's.
    expect(first.message.usage.output_tokens).toBe(1);
    expect(new Set(assistants.map((m) => m.uuid)).size).toBe(4);
    // Each block's message goes out before its content_block_stop, as Claude Code sends it.
    const order = run.messages.map((m: any) => (m.type === 'stream_event' ? m.event.type : m.type));
    const firstStop = order.indexOf('content_block_stop');
    expect(order[firstStop - 1]).toBe('assistant');
    // Every stream event names the API message it belongs to.
    const streamed = run.messages.filter((m) => m.type === 'stream_event') as any[];
    expect(streamed[0].api_message_id).toBe(first.message.id);
    expect(streamed.at(-1).api_message_id).toBe(last.message.id);
    expect(run.result).toMatchObject({
      subtype: 'success',
      result: 'Both read.',
      num_turns: 2,
      stop_reason: 'end_turn',
      api_error_status: null,
      result_index: 0,
    });
    expect(run.result!.usage.output_tokens).toBeGreaterThan(2);
  });

  it('system prompt forms: a string follows the SDK line; the claude_code preset is wicket’s own prompt with append', async () => {
    t.api.script(reply().text('one'), reply().text('two'));
    await sdkRun(t, 'first', { systemPrompt: 'You answer in haiku.' });
    await sdkRun(t, 'second', { systemPrompt: { type: 'preset', preset: 'claude_code', append: 'APPENDED-SYSTEM-TEXT' } });
    const [custom, preset] = t.api.messageRequests().map((r) => systemText(r.body));
    expect(custom!.startsWith(`${SDK_LINE}\n\nYou answer in haiku.`)).toBe(true);
    expect(custom).not.toMatch(WICKET_PROMPT);
    expect(preset).toMatch(WICKET_PROMPT);
    expect(preset).toContain('APPENDED-SYSTEM-TEXT');
    expect(preset).not.toContain(SDK_LINE);
  });

  it('agents sent in initialize are the session’s: listed, and offered to the model', async () => {
    t.api.script(reply().text('ok'));
    const { q, stderr } = sdkQuery(t, 'hi', {
      agents: { 'code-checker': { description: 'Checks code for problems.', prompt: 'You check code.', tools: ['Read'] } },
    });
    const agents = await q.supportedAgents();
    for await (const _ of q) {
      // read to the end
    }
    expect(agents).toEqual(expect.arrayContaining([{ name: 'code-checker', description: 'Checks code for problems.' }]));
    const body = t.api.messageRequests()[0]!.body;
    expect(JSON.stringify(body.tools)).toContain('code-checker');
    expect(stderr()).toBe('');
  });

  it('a 529 is retried: api_retry with the SDK error kind, then the answer', async () => {
    t.api.script(reply().error(529), reply().text('Hello after a retry.'));
    const run = await sdkRun(t, 'Say hello.', { env: { WICKET_RETRY_BASE_DELAY_MS: '10' } });
    const retry = run.messages.find((m: any) => m.type === 'system' && m.subtype === 'api_retry') as any;
    expect(retry).toMatchObject({ attempt: 1, error_status: 529, error: 'overloaded' });
    expect(typeof retry.retry_delay_ms).toBe('number');
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, result: 'Hello after a retry.' });
    expect(t.api.messageRequests()).toHaveLength(2);
  });

  it('a 400 is shaped as Claude Code shapes it, and the SDK throws the error result', async () => {
    t.api.script(reply().error(400, { message: 'max_tokens: Field required' }));
    const run = await sdkRun(t, 'Say hello.');
    const synthetic = run.messages.find((m: any) => m.type === 'assistant') as any;
    expect(synthetic).toMatchObject({ is_api_error_message: true, api_error_status: 400, error: 'unknown' });
    expect(synthetic.message).toMatchObject({ model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 400 max_tokens: Field required' }] });
    expect(run.result).toMatchObject({
      subtype: 'success',
      is_error: true,
      result: 'API Error: 400 max_tokens: Field required',
      api_error_status: 400,
      api_error_type: 'invalid_request_error',
      terminal_reason: 'api_error',
    });
    expect(run.error?.message).toBe('Claude Code returned an error result: API Error: 400 max_tokens: Field required');
    expect(t.api.messageRequests()).toHaveLength(1);
  });

  it('system/init comes after the UserPromptSubmit hooks (--include-hook-events); jsonSchema gives structured_output', async () => {
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo "PROMPT-CONTEXT"' }] }] } }),
    );
    t.api.script(reply().toolUse('StructuredOutput', { n: 3 }), reply().text('done'));
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const run = await sdkRun(t, 'count', { includeHookEvents: true, outputFormat: { type: 'json_schema', schema } });
    const kinds = run.kinds.filter((k) => k.startsWith('system/'));
    expect(kinds.slice(0, 3)).toEqual(['system/hook_started', 'system/hook_response', 'system/init']);
    expect(run.result).toMatchObject({ subtype: 'success', structured_output: { n: 3 } });
    expect(JSON.stringify(t.api.messageRequests()[0]!.body.messages)).toContain('PROMPT-CONTEXT');
  });
});
