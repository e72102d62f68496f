import { describe, expect, it } from 'vitest';
import { apiLimitsFromEnv, ApiTimeoutError, duration, RequestWatch } from '../../../src/api/limits.js';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function watch(idleMs: number, totalMs: number) {
  const fired: ApiTimeoutError[] = [];
  const w = new RequestWatch({ idleMs, totalMs }, (err) => fired.push(err), ' (through the proxy http://p:1)');
  return { w, fired };
}

describe('API limits', () => {
  it('read WICKET_API_IDLE_TIMEOUT_MS and API_TIMEOUT_MS; anything but a positive number keeps the default', () => {
    expect(apiLimitsFromEnv({})).toEqual({ idleMs: 60_000, totalMs: 600_000 });
    expect(apiLimitsFromEnv({ WICKET_API_IDLE_TIMEOUT_MS: '200', API_TIMEOUT_MS: '900' })).toEqual({ idleMs: 200, totalMs: 900 });
    for (const bad of ['', 'soon', '0', '-5', ' '])
      expect(apiLimitsFromEnv({ WICKET_API_IDLE_TIMEOUT_MS: bad, API_TIMEOUT_MS: bad })).toEqual({ idleMs: 60_000, totalMs: 600_000 });
  });

  it('say durations as a person reads them', () => {
    expect([duration(200), duration(1500), duration(60_000)]).toEqual(['200 ms', '1.5 s', '60 s']);
  });

  it('a silent connection, then a silent wait for the headers, then a silent stream: each named', async () => {
    const a = watch(30, 10_000);
    await wait(80);
    expect(a.fired.map((e) => e.message)).toEqual([
      'the API sent nothing for 30 ms while the connection was being made (through the proxy http://p:1) (WICKET_API_IDLE_TIMEOUT_MS)',
    ]);
    const b = watch(30, 10_000);
    b.w.bodySent();
    await wait(80);
    expect(b.fired[0]!.message).toBe(
      'the API sent nothing for 30 ms after the request was sent, before its response headers (through the proxy http://p:1) (WICKET_API_IDLE_TIMEOUT_MS)',
    );
    const c = watch(30, 10_000);
    c.w.headers();
    await wait(80);
    expect(c.fired[0]!.message).toBe('the API sent nothing for 30 ms in the middle of its answer (WICKET_API_IDLE_TIMEOUT_MS)');
    expect(c.fired[0]).toBeInstanceOf(ApiTimeoutError);
  });

  it('activity keeps the idle limit away; the whole-request limit still ends it, once', async () => {
    const { w, fired } = watch(40, 150);
    w.headers();
    const beat = setInterval(() => w.activity(), 10);
    await wait(250);
    clearInterval(beat);
    expect(fired.map((e) => e.message)).toEqual(["the API's answer took longer than 150 ms (API_TIMEOUT_MS)"]);
  });

  it('an ended request fires nothing', async () => {
    const { w, fired } = watch(20, 40);
    w.end();
    await wait(80);
    expect(fired).toEqual([]);
  });
});
