import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIConnectionError, APIError } from '@anthropic-ai/sdk/core/error';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseURLProblem, messagesURL, postMessagesStream, type TransportConfig } from '../../../src/api/http-transport.js';
import { createModelClient } from '../../../src/api/model-client.js';
import { betasWarning, clientFromEnv } from '../../../src/core/setup/client-setup.js';
import { parseCustomHeaders } from '../../../src/core/setup/session-setup.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic-server.js';

let server: FakeAnthropic;
const body = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true };

beforeEach(async () => {
  server = await startFakeAnthropic();
});
afterEach(() => server.close());

async function collect(stream: AsyncIterable<unknown>): Promise<any[]> {
  const out: any[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

function config(over: Partial<TransportConfig> = {}): TransportConfig {
  return { apiKey: 'key-1', baseURL: server.url, limits: { idleMs: 5000 }, ...over };
}

describe('http transport', () => {
  it('streams the decoded events of a reply', async () => {
    server.script(reply().text('hello'));
    const events = await collect(await postMessagesStream(config(), body, new AbortController().signal));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['message_start', 'content_block_delta', 'message_stop']));
    const text = events
      .filter((e) => e.delta?.type === 'text_delta')
      .map((e) => e.delta.text)
      .join('');
    expect(text).toBe('hello');
  });

  it('sends the API version, the key, the user agent and custom headers, but custom headers cannot replace the key', async () => {
    server.script(reply().text('ok'));
    const headers = { 'anthropic-beta': 'feature-x', 'x-api-key': 'stolen' };
    await collect(await postMessagesStream(config({ userAgent: 'wicket/1.2.3', headers }), body, new AbortController().signal));
    const sent = server.messageRequests()[0]!.headers;
    expect(sent).toMatchObject({ 'anthropic-version': '2023-06-01', 'x-api-key': 'key-1', 'user-agent': 'wicket/1.2.3', 'anthropic-beta': 'feature-x' });
    expect(sent['content-type']).toBe('application/json');
  });

  it('sends a bearer token when given ANTHROPIC_AUTH_TOKEN instead of a key', async () => {
    server.script(reply().text('ok'));
    await collect(await postMessagesStream(config({ apiKey: undefined, authToken: 'tok' }), body, new AbortController().signal));
    const sent = server.messageRequests()[0]!.headers;
    expect(sent.authorization).toBe('Bearer tok');
    expect(sent['x-api-key']).toBeUndefined();
  });

  it('turns an error status into the SDK error with status, message and headers', async () => {
    server.script(reply().error(429, { message: 'slow down', retryAfter: 7 }));
    const err = await postMessagesStream(config(), body, new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(429);
    expect((err as APIError).message).toContain('slow down');
    expect((err as APIError).headers?.get('retry-after')).toBe('7');
  });

  it('reports a refused connection as a connection error', async () => {
    const err = await postMessagesStream(config({ baseURL: 'http://127.0.0.1:1' }), body, new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIConnectionError);
    expect((err as Error).message).toMatch(/connection failed: .*ECONNREFUSED/);
  });

  it('gives up on a server that never answers after the timeout', async () => {
    const silent: Server = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const err = await postMessagesStream(config({ baseURL: url, limits: { idleMs: 200 } }), body, new AbortController().signal).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(APIConnectionError);
      expect((err as Error).message).toMatch(
        /the API sent nothing for 200 ms after the request was sent, before its response headers \(WICKET_API_IDLE_TIMEOUT_MS\)/,
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('stops at once when aborted while the server is silent', async () => {
    server.script(reply().delay(5000).text('late'));
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('esc')), 50);
    // Left alone, the server answers after 5 s and the call succeeds: only the abort makes it fail.
    await expect((async () => collect(await postMessagesStream(config(), body, ac.signal)))()).rejects.toThrow('aborted');
  });

  it('ends the events with an error when the connection closes before the reply is complete', async () => {
    server.script(reply().text('Hello ').text('cut short').dropConnection());
    const seen: any[] = [];
    const reading = (async () => {
      for await (const e of await postMessagesStream(config(), body, new AbortController().signal)) seen.push(e);
    })();
    await expect(reading).rejects.toThrow();
    expect(seen.some((e) => e.type === 'message_stop')).toBe(false);
  });

  it('delivers every chunk of a reply that arrives in many pieces, then ends', async () => {
    let many = reply();
    for (let i = 0; i < 200; i++) many = many.text(`${i} `);
    server.script(many);
    const events = await collect(await postMessagesStream(config(), body, new AbortController().signal));
    const text = events
      .filter((e) => e.delta?.type === 'text_delta')
      .map((e) => e.delta.text)
      .join('');
    expect(text).toBe(Array.from({ length: 200 }, (_, i) => `${i} `).join(''));
    expect(events.at(-1).type).toBe('message_stop');
  });

  it('joins a base URL with a path prefix and a trailing slash', () => {
    expect(messagesURL('https://proxy.example/anthropic/').href).toBe('https://proxy.example/anthropic/v1/messages');
    expect(messagesURL(undefined).href).toBe('https://api.anthropic.com/v1/messages');
  });

  it('says at once why a base URL cannot be used, instead of retrying it', () => {
    expect(baseURLProblem('not a url')).toBe('ANTHROPIC_BASE_URL is not a URL: not a url');
    expect(baseURLProblem('ftp://host')).toMatch(/must be an http or https URL/);
    expect(baseURLProblem('http://127.0.0.1:8080/proxy')).toBeUndefined();
    expect(baseURLProblem(undefined)).toBeUndefined();
    expect(() => createModelClient({ apiKey: 'k', baseURL: 'nope', retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1 } })).toThrow(/not a URL/);
  });

  it('reads ANTHROPIC_CUSTOM_HEADERS as Name: Value lines', () => {
    expect(parseCustomHeaders('X-Team: core\nanthropic-beta: a,b\n\nbroken line\n: nameless')).toEqual({ 'x-team': 'core', 'anthropic-beta': 'a,b' });
    expect(parseCustomHeaders(undefined)).toBeUndefined();
    expect(parseCustomHeaders('nothing here')).toBeUndefined();
  });

  it('--betas go out as anthropic-beta beside the custom headers’ and the request’s own; a cloud provider is told it carries none', async () => {
    server.script(reply().text('ok'));
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, ANTHROPIC_CUSTOM_HEADERS: 'anthropic-beta: feature-x' };
    const client = clientFromEnv(
      env,
      {},
      { choice: { kind: 'firstParty', ignored: [] }, cwd: '/', smallModel: 'm', betas: ['context-1m-2025-08-07', 'feature-x'] },
    );
    const stream = client.stream(
      { model: 'm', system: [], messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 10, betas: ['own-beta'] },
      new AbortController().signal,
    );
    while (!(await stream.next()).done);
    expect(String(server.messageRequests()[0]!.headers['anthropic-beta']).split(',').sort()).toEqual(['context-1m-2025-08-07', 'feature-x', 'own-beta']);
    expect(betasWarning({ kind: 'firstParty', ignored: [] }, ['b'])).toBeUndefined();
    expect(betasWarning({ kind: 'bedrock', via: 'CLAUDE_CODE_USE_BEDROCK', ignored: [] }, ['b'])).toContain('(bedrock) do not carry them');
  });
});
