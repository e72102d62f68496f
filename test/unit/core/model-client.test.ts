import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient, type ModelClient, type ModelRequest } from '../../../src/api/model-client.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic-server.js';

let server: FakeAnthropic;
let client: ModelClient;
const req: ModelRequest = { model: 'm', system: [{ type: 'text', text: 's' }], messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 100 };

beforeEach(async () => {
  server = await startFakeAnthropic();
  client = createModelClient({ apiKey: 'k', baseURL: server.url, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 } });
});
afterEach(() => server.close());

async function drain(gen: AsyncGenerator<unknown, unknown>) {
  const events: unknown[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { events, final: step.value as any };
}

describe('model client', () => {
  it('streams a message and reports usage', async () => {
    server.script(reply().text('hello').usage({ input_tokens: 3, output_tokens: 2 }));
    const { final } = await drain(client.stream(req, new AbortController().signal));
    expect(final.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 2 });
  });

  it('gives up at once on abort when the server stops sending mid-answer', async () => {
    server.script(reply().text('partial').hang());
    const ac = new AbortController();
    const gen = client.stream(req, ac.signal);
    const first = await gen.next();
    expect(first.done).toBe(false);
    setTimeout(() => ac.abort('esc'), 50);
    // The server never sends more and the idle limit is a minute: only the abort can end the stream, with its reason.
    await expect(drain(gen)).rejects.toBe('esc');
    expect(server.messageRequests()).toHaveLength(1);
  });

  it('does not retry a 400 and says so in one sentence', async () => {
    server.script(reply().error(400, { type: 'invalid_request_error', message: 'bad thing' }));
    await expect(drain(client.stream(req, new AbortController().signal))).rejects.toThrow(/the API rejected the request \(400\): bad thing/);
    expect(server.messageRequests()).toHaveLength(1);
  });

  it('retries a dropped connection and reports the retry', async () => {
    server.script(reply().text('x').dropConnection(), reply().text('xy'));
    const { events, final } = await drain(client.stream(req, new AbortController().signal));
    expect(events.some((e: any) => e.type === 'retry')).toBe(true);
    expect(final.content).toEqual([{ type: 'text', text: 'xy' }]);
    const texts = events
      .filter((e: any) => e.type === 'text')
      .map((e: any) => e.text)
      .join('');
    expect(texts).toBe('xy');
  });

  it('a retry that says something else replaces the text shown, instead of being cut to fit it', async () => {
    server.script(reply().text('Running it.').dropConnection(), reply().text('Run').text('ning late: other words'));
    const { events, final } = await drain(client.stream(req, new AbortController().signal));
    const texts = events.filter((e: any) => e.type === 'text');
    expect(texts).toEqual([
      { type: 'text', text: 'Running it.' },
      { type: 'text', text: 'Running late: other words', restart: true },
    ]);
    expect(final.content).toEqual([{ type: 'text', text: 'Running late: other words' }]);
  });

  it('a retry that says less than was shown replaces it when it ends', async () => {
    server.script(reply().text('Hello, world').dropConnection(), reply().text('Hello'));
    const { events, final } = await drain(client.stream(req, new AbortController().signal));
    expect(events.filter((e: any) => e.type === 'text').at(-1)).toEqual({ type: 'text', text: 'Hello', restart: true });
    expect(final.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it('gives up after the bounded number of attempts', async () => {
    server.script(reply().error(529), reply().error(529), reply().error(529));
    await expect(drain(client.stream(req, new AbortController().signal))).rejects.toThrow(/after 3 attempts \(529\)/);
  });
});
