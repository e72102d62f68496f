import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findViolations, reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic-server.js';

const MODEL = 'claude-sonnet-4-5';
let server: FakeAnthropic;
let client: Anthropic;

beforeEach(async () => {
  server = await startFakeAnthropic();
  client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

const ask = (messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'hi' }]) => client.messages.stream({ model: MODEL, max_tokens: 100, messages });

/** POST raw JSON and return the raw response, for checks below the SDK. */
async function post(body: unknown, headers: Record<string, string> = { 'x-api-key': 'k' }) {
  const res = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Parse SSE framing strictly: `event: X\ndata: JSON\n\n`, event name equal to data.type. */
function parseSse(text: string): Array<Record<string, any>> {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const match = /^event: (\w+)\ndata: (.*)$/.exec(frame);
      if (!match) throw new Error(`bad SSE frame: ${JSON.stringify(frame)}`);
      const data = JSON.parse(match[2] ?? '') as Record<string, any>;
      expect(data.type).toBe(match[1]);
      return data;
    });
}

describe('streaming turns', () => {
  it('streams a text turn that the SDK assembles into one message', async () => {
    server.script(reply().text('Hello ').text('world').usage({ input_tokens: 12, output_tokens: 3, cache_read_input_tokens: 5 }));
    const message = await ask().finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'Hello world' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.model).toBe(MODEL);
    expect(message.id).toMatch(/^msg_01/);
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, cache_read_input_tokens: 5, cache_creation_input_tokens: 0 });
    expect(server.requests[0]?.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    const { authorization, 'x-api-key': apiKey } = server.requests[0]?.headers ?? {};
    expect(apiKey ?? authorization).toMatch(/test-key/);
    server.assertNoViolations();
  });

  it('streams tool_use turns with unique ids and inputs the SDK parses', async () => {
    server.script(reply().text('Let me look.').toolUse('Read', { file_path: 'a.txt' }).toolUse('Glob', { pattern: '*' }));
    const message = await ask().finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const [text, read, glob] = message.content;
    expect(text).toEqual({ type: 'text', text: 'Let me look.' });
    expect(read).toMatchObject({ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } });
    expect(glob).toMatchObject({ type: 'tool_use', name: 'Glob', input: { pattern: '*' } });
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    expect(ids.every((id) => id.startsWith('toolu_01'))).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('emits the real event sequence, with JSON input split over several deltas', async () => {
    server.script(reply().thinking('hmm', 'sig-1').text('x').toolUse('Read', { file_path: 'some/longer/path.txt' }));
    const res = await post({ model: MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'go' }] });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(res.text);
    expect(events.map((e) => (e.type === 'content_block_delta' ? `delta:${e.delta.type}` : e.type))).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'delta:thinking_delta',
      'delta:signature_delta',
      'content_block_stop',
      'content_block_start',
      'delta:text_delta',
      'content_block_stop',
      'content_block_start',
      'delta:input_json_delta',
      'delta:input_json_delta',
      'delta:input_json_delta',
      'delta:input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = events.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json as string);
    expect(JSON.parse(json.join(''))).toEqual({ file_path: 'some/longer/path.txt' });
    expect(events[0]?.message.usage.input_tokens).toBeGreaterThan(0);
    expect(events.at(-2)?.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
  });

  it('streams thinking with its signature', async () => {
    server.script(reply().thinking('hmm').text('x'));
    const message = await ask().finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'hmm' });
    expect((message.content[0] as Anthropic.ThinkingBlock).signature).not.toBe('');
    expect(message.content[1]).toEqual({ type: 'text', text: 'x' });
  });

  it('honours an explicit stop_reason', async () => {
    server.script(reply().text('cut').stopReason('max_tokens'));
    expect((await ask().finalMessage()).stop_reason).toBe('max_tokens');
  });

  it('answers a non-streaming request with one JSON message', async () => {
    server.script(reply().toolUse('Bash', { command: 'ls' }, { id: 'toolu_01fixed' }));
    const message = await client.messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'go' }] });
    expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_01fixed', name: 'Bash', input: { command: 'ls' } }]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('waits before streaming when delayed', async () => {
    server.script(reply().delay(60).text('slow'));
    const started = Date.now();
    expect((await ask().finalMessage()).content).toEqual([{ type: 'text', text: 'slow' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });
});

describe('scripting', () => {
  it('lets a function decide the reply from the request', async () => {
    server.script(reply((req) => `you said ${String(req.body.messages?.[0]?.content)}`));
    expect((await ask([{ role: 'user', content: 'ping' }]).finalMessage()).content).toEqual([{ type: 'text', text: 'you said ping' }]);
  });

  it('answers "done" once the script is exhausted, and counts it', async () => {
    expect((await ask().finalMessage()).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(server.unscripted).toBe(1);
    expect(() => server.assertScriptConsumed()).not.toThrow();
  });

  it('fails unscripted requests when asked to', async () => {
    const strict = await startFakeAnthropic({ whenExhausted: 'fail' });
    const strictClient = new Anthropic({ apiKey: 'k', baseURL: strict.url, maxRetries: 0 });
    await expect(strictClient.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 400,
    });
    expect(() => strict.assertNoViolations()).toThrow(/script was exhausted/);
    await strict.close();
  });

  it('reports scripted replies that were never requested', () => {
    server.script('one', 'two');
    expect(server.pending()).toBe(2);
    expect(() => server.assertScriptConsumed()).toThrow(/2 scripted replies/);
  });
});

describe('failures', () => {
  it('surfaces an injected 529 as an APIError with status 529', async () => {
    server.script(reply().error(529));
    const error = await ask()
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });

  it('lets the SDK retry a 429 into the next scripted reply', async () => {
    server.script(reply().error(429, { retryAfter: 0 }), reply().text('after retry'));
    const retrying = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 1 });
    const message = await retrying.messages.stream({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).finalMessage();
    expect(message.content).toEqual([{ type: 'text', text: 'after retry' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('surfaces a dropped connection as an error', async () => {
    server.script(reply().text('partial').dropConnection());
    await expect(ask().finalMessage()).rejects.toThrow();
  });

  it('surfaces a mid-stream error event as an error', async () => {
    server.script(reply().text('partial').streamError('overloaded_error', 'Overloaded'));
    await expect(ask().finalMessage()).rejects.toThrow(/Overloaded/);
  });

  it('hangs until the client gives up, and still closes promptly', async () => {
    server.script(reply().hang());
    const controller = new AbortController();
    const pending = client.messages.stream({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending.finalMessage()).rejects.toThrow();
  });

  it('answers 401 without credentials', async () => {
    const res = await post({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }, {});
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});

describe('Messages API rules', () => {
  const toolTurn: Anthropic.MessageParam = {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_01a', name: 'Read', input: {} },
      { type: 'tool_use', id: 'toolu_01b', name: 'Read', input: {} },
    ],
  };
  const result = (id: string): Anthropic.ToolResultBlockParam => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

  it('rejects a missing tool_result with 400 and records it', async () => {
    const error = await ask([{ role: 'user', content: 'go' }, toolTurn, { role: 'user', content: [result('toolu_01a')] }])
      .finalMessage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.violations).toEqual([expect.stringMatching(/^request #0: messages\.2: tool_use ids were found without tool_result blocks.*toolu_01b/)]);
    expect(() => server.assertNoViolations()).toThrow(/toolu_01b/);
    expect(server.pending()).toBe(0);
  });

  it('rejects tool_results out of order', async () => {
    await expect(
      ask([{ role: 'user', content: 'go' }, toolTurn, { role: 'user', content: [result('toolu_01b'), result('toolu_01a')] }]).finalMessage(),
    ).rejects.toMatchObject({ status: 400 });
    expect(server.violations.join('\n')).toMatch(/order of the tool_use blocks \(expected toolu_01a, toolu_01b; got toolu_01b, toolu_01a\)/);
  });

  it('accepts a well-formed tool round trip', async () => {
    const text: Anthropic.TextBlockParam = { type: 'text', text: 'note' };
    await ask([{ role: 'user', content: 'go' }, toolTurn, { role: 'user', content: [result('toolu_01a'), result('toolu_01b'), text] }]).finalMessage();
    server.assertNoViolations();
  });

  it('finds the other rule breaks', () => {
    const base = { model: MODEL, max_tokens: 5 };
    const check = (messages: unknown[]) => findViolations({ ...base, messages }).join('\n');
    expect(check([{ role: 'assistant', content: 'x' }])).toMatch(/alternate/);
    expect(check([{ role: 'user', content: [result('toolu_01z')] }])).toMatch(/unexpected tool_use_id.*toolu_01z/);
    expect(
      check([{ role: 'user', content: 'go' }, toolTurn, { role: 'user', content: [{ type: 'text', text: 'x' }, result('toolu_01a'), result('toolu_01b')] }]),
    ).toMatch(/must come first/);
    expect(
      check([{ role: 'user', content: 'go' }, toolTurn, { role: 'user', content: [result('toolu_01a'), result('toolu_01a'), result('toolu_01b')] }]),
    ).toMatch(/multiple tool_result/);
    expect(
      check([
        { role: 'user', content: 'go' },
        toolTurn,
        { role: 'user', content: [result('toolu_01a'), result('toolu_01b')] },
        toolTurn,
        { role: 'user', content: [result('toolu_01a'), result('toolu_01b')] },
      ]),
    ).toMatch(/unique/);
    expect(check([{ role: 'user', content: 'go' }, toolTurn])).toMatch(/without tool_result/);
    expect(check([{ role: 'user', content: [{ type: 'text', text: '' }] }])).toMatch(/non-empty/);
    expect(findViolations({ messages: [{ role: 'user', content: 'x' }] })).toEqual(['model: field required', 'max_tokens: field required']);
  });

  it('checks tool search: the beta, a tool left loaded, and references alone inside tool_results naming defined tools', () => {
    const BETA = ['advanced-tool-use-2025-11-20'];
    const tools = [
      { name: 'ToolSearch', input_schema: { type: 'object' } },
      { name: 'mcp__s__t', input_schema: { type: 'object' }, defer_loading: true },
    ];
    const search: Anthropic.MessageParam = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_01s', name: 'ToolSearch', input: { query: 'select:mcp__s__t' } }],
    };
    const loaded = (content: unknown[]) => [
      { role: 'user', content: 'go' },
      search,
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01s', content }] },
    ];
    const check = (body: Record<string, unknown>, betas: string[] = BETA) => findViolations({ model: MODEL, max_tokens: 5, tools, ...body }, betas).join('\n');
    expect(check({ messages: loaded([{ type: 'tool_reference', tool_name: 'mcp__s__t' }]) })).toBe('');
    expect(check({ messages: loaded([{ type: 'tool_reference', tool_name: 'mcp__s__t' }]) }, [])).toMatch(
      /defer_loading requires the beta[\s\S]*tool_reference requires the beta/,
    );
    expect(
      check({
        messages: loaded([
          { type: 'tool_reference', tool_name: 'mcp__s__t' },
          { type: 'text', text: 'x' },
        ]),
      }),
    ).toMatch(/nothing else/);
    expect(check({ messages: loaded([{ type: 'tool_reference', tool_name: 'mcp__s__u' }]) })).toMatch(/mcp__s__u, which is not in tools/);
    expect(check({ messages: [{ role: 'user', content: [{ type: 'tool_reference', tool_name: 'mcp__s__t' }] }] })).toMatch(/only inside tool_result/);
    expect(check({ tools: [tools[1]], messages: [{ role: 'user', content: 'go' }] })).toMatch(/at least one tool must not be deferred/);
  });
});
