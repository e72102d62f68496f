import { describe, expect, it } from 'vitest';
import { isRetryableStatus, parseRetryAfter, retryDelay } from '../../../src/api/retry.js';
import { MessageAccumulator } from '../../../src/api/message-accumulator.js';

const headers = (h: Record<string, string>) => ({ get: (k: string) => h[k] ?? null });

describe('retry policy', () => {
  const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
  it('retries 429, 529, 5xx and connection failures; not 400/401/403/404', () => {
    for (const s of [429, 529, 500, 502, 503, undefined]) expect(isRetryableStatus(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 413]) expect(isRetryableStatus(s)).toBe(false);
  });
  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelay(1, policy, undefined, () => 0)).toBe(100);
    expect(retryDelay(3, policy, undefined, () => 0)).toBe(400);
    expect(retryDelay(10, policy, undefined, () => 0)).toBe(1000);
    expect(retryDelay(2, policy, undefined, () => 1)).toBe(150);
  });
  it('honours retry-after in seconds, as a date, and retry-after-ms', () => {
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryDelay(1, policy, 2500)).toBe(2500);
  });
});

describe('MessageAccumulator', () => {
  it('assembles text and tool_use from split JSON chunks and reports complete tool uses', () => {
    const acc = new MessageAccumulator();
    acc.push({ type: 'message_start', message: { id: 'msg', model: 'm', usage: { input_tokens: 5 } } });
    acc.push({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(acc.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }).text).toBe('hi');
    acc.push({ type: 'content_block_stop', index: 0 });
    acc.push({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'Read', input: {} } });
    acc.push({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file_' } });
    acc.push({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'path":"a"}' } });
    expect(acc.push({ type: 'content_block_stop', index: 1 }).toolUse).toEqual({ id: 't', name: 'Read', input: { file_path: 'a' } });
    acc.push({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 7 } });
    expect(acc.stopReason).toBe('tool_use');
    expect(acc.usage).toMatchObject({ input_tokens: 5, output_tokens: 7 });
    expect(acc.content()).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'a' } },
    ]);
  });
  it('flags invalid tool JSON instead of throwing', () => {
    const acc = new MessageAccumulator();
    acc.push({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'Read', input: {} } });
    acc.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } });
    expect(acc.push({ type: 'content_block_stop', index: 0 }).toolUse?.inputError).toContain('not valid JSON');
  });
});
