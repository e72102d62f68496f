import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliOptions } from '../../../src/core/setup/options.js';
import { applyInitialize, Initialization, SDK_DEFAULT_SYSTEM_PROMPT } from '../../../src/sdk/initialize.js';
import { SdkInput } from '../../../src/sdk/input.js';
import { SdkSession } from '../../../src/sdk/session.js';

function setup() {
  const sent: Array<Record<string, any>> = [];
  const warnings: string[] = [];
  const session = new SdkSession({ send: (m) => void sent.push(m) });
  const input = new SdkInput(session, { warn: (w) => void warnings.push(w) });
  return { session, input, sent, warnings };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const opts = (): CliOptions => ({ disallowedTools: ['WebFetch'], mcpConfig: [], appendSystemPrompt: 'from the flag' }) as unknown as CliOptions;

describe('SdkInput', () => {
  it('keeps the first initialize, queues user lines with their uuid, and starts at the first of them', async () => {
    const { session, input } = setup();
    let started = false;
    void input.started.then(() => (started = true));
    input.line('');
    await tick();
    expect(started).toBe(false);
    input.line(JSON.stringify({ request_id: 'i1', type: 'control_request', request: { subtype: 'initialize', systemPrompt: [''] } }));
    input.line(JSON.stringify({ type: 'user', message: { role: 'user', content: 'one' }, uuid: 'u-1' }));
    input.line(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } }));
    await tick();
    expect(started).toBe(true);
    expect(session.init).toEqual({ subtype: 'initialize', systemPrompt: [''] });
    expect(input.turns.queued()[0]).toBe('u-1');
    expect(input.turns.queued()).toHaveLength(2);
    expect(input.turns.drop('u-1')).toEqual(['u-1']);
    input.end();
    const got: unknown[] = [];
    for await (const t of input.turns) got.push(t.content);
    expect(got).toEqual([[{ type: 'text', text: 'two' }]]);
  });

  it('says what it skips (a line that is not JSON, each unknown type once), and never stops reading', async () => {
    const { input, warnings } = setup();
    input.line('not json');
    input.line(JSON.stringify({ type: 'mystery' }));
    input.line(JSON.stringify({ type: 'mystery' }));
    input.line(JSON.stringify({ type: 'keep_alive' }));
    input.line(JSON.stringify({ type: 'user', message: {} }));
    input.line(JSON.stringify({ type: 'user', message: { role: 'user', content: 'ok' } }));
    expect(warnings).toEqual([
      'ignoring a stdin line that is not JSON: not json',
      'ignoring stdin messages of type "mystery": wicket reads user messages and control requests',
      'ignoring a user message without content',
    ]);
    expect(input.turns.queued()).toHaveLength(1);
  });

  it('answers control requests while a turn waits, and the end of input closes the queue and the channel', async () => {
    const { session, input, sent } = setup();
    session.channel.onRequest('mcp_status', () => ({ mcpServers: [] }));
    const stream = new PassThrough();
    input.read(stream);
    stream.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    stream.write(`${JSON.stringify({ request_id: 'r1', type: 'control_request', request: { subtype: 'mcp_status' } })}\n`);
    await tick();
    expect(sent).toEqual([{ type: 'control_response', response: { subtype: 'success', request_id: 'r1', response: { mcpServers: [] } } }]);
    const pending = session.channel.request('can_use_tool', {});
    stream.end();
    await expect(pending).rejects.toThrow('the input ended');
    expect(input.turns.ended).toBe(true);
  });
});

describe('initialize', () => {
  it('the SDK’s system prompt forms: [""] is its short line, ["text"] follows it, absent keeps wicket’s; append adds to the flag', () => {
    const a = opts();
    applyInitialize(a, { subtype: 'initialize', systemPrompt: [''] }, '/');
    expect(a.systemPrompt).toBe(SDK_DEFAULT_SYSTEM_PROMPT);
    const b = opts();
    applyInitialize(b, { subtype: 'initialize', systemPrompt: ['Be brief.'] }, '/');
    expect(b.systemPrompt).toBe(`${SDK_DEFAULT_SYSTEM_PROMPT}\n\nBe brief.`);
    const c = opts();
    applyInitialize(c, { subtype: 'initialize', appendSystemPrompt: 'APPENDED' }, '/');
    expect(c.systemPrompt).toBeUndefined();
    expect(c.appendSystemPrompt).toBe('from the flag\n\nAPPENDED');
    const none = opts();
    applyInitialize(none, undefined, '/');
    expect(none.systemPrompt).toBeUndefined();
  });

  it('applies agents, the JSON schema, the title and the launch fields, and says which were applied', () => {
    const o = opts();
    const applied = applyInitialize(
      o,
      {
        subtype: 'initialize',
        agents: { checker: { description: 'd', prompt: 'p' } },
        jsonSchema: { type: 'object' },
        title: ' Release ',
        settings: { model: 'opus' },
        disallowedTools: ['Bash'],
        mcpServers: { fs: { command: 'node' } },
      },
      '/',
    );
    expect(applied).toEqual({ settings_applied: true, disallowed_tools_applied: true, mcp_servers_applied: true });
    expect(JSON.parse(o.agents!)).toEqual({ checker: { description: 'd', prompt: 'p' } });
    expect(o.jsonSchema).toBe('{"type":"object"}');
    expect(o.name).toBe('Release');
    expect(o.hostSettings).toBe('{"model":"opus"}');
    expect(o.disallowedTools).toEqual(['WebFetch', 'Bash']);
    expect(o.mcpConfig).toEqual(['{"mcpServers":{"fs":{"command":"node"}}}']);
    expect(() => applyInitialize(opts(), { subtype: 'initialize', disallowedTools: 'Bash' as never }, '/')).toThrow('list of rule strings');
    expect(() => applyInitialize(opts(), { subtype: 'initialize', settings: 'no-such-file.json' }, '/')).toThrow('cannot read no-such-file.json');
  });

  it('is answered once the session is ready (also again: reinitialize), or with the error that stopped it', async () => {
    const { session, sent } = setup();
    const init = new Initialization(session);
    session.channel.receive({ request_id: 'i1', type: 'control_request', request: { subtype: 'initialize' } });
    await tick();
    expect(sent).toEqual([]);
    init.ready(() => ({ pid: 1 }));
    await tick();
    session.channel.receive({ request_id: 'i2', type: 'control_request', request: { subtype: 'initialize' } });
    await tick();
    expect(sent.map((m) => m.response)).toEqual([
      { subtype: 'success', request_id: 'i1', response: { pid: 1 } },
      { subtype: 'success', request_id: 'i2', response: { pid: 1 } },
    ]);
    const other = setup();
    new Initialization(other.session).fail(new Error('settings cannot be read'));
    other.session.channel.receive({ request_id: 'i3', type: 'control_request', request: { subtype: 'initialize' } });
    await tick();
    expect(other.sent[0]!.response).toEqual({ subtype: 'error', request_id: 'i3', error: 'settings cannot be read' });
  });
});
