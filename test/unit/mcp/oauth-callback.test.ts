import { describe, expect, it } from 'vitest';
import { startCallbackServer } from '../../../src/mcp/oauth-callback.js';

describe('the loopback callback of a sign-in', () => {
  it('listens on 127.0.0.1 and hands over the code of the callback with the right state', async () => {
    const cb = await startCallbackServer({});
    try {
      expect(cb.redirectUrl).toBe(`http://localhost:${cb.port}/callback`);
      const code = cb.code(() => 's1', { timeoutMs: 5000 });
      expect((await fetch(`http://127.0.0.1:${cb.port}/elsewhere`)).status).toBe(404);
      const wrong = await fetch(`http://127.0.0.1:${cb.port}/callback?code=x&state=s2`);
      expect(wrong.status).toBe(400);
      const right = await fetch(`http://127.0.0.1:${cb.port}/callback?code=the-code&state=s1`);
      expect(right.status).toBe(200);
      expect(right.headers.get('content-type')).toContain('text/html');
      expect(await code).toBe('the-code');
    } finally {
      cb.close();
    }
  });

  it('the authorization server’s refusal ends the wait with its reason; so do a timeout and an abort', async () => {
    const cb = await startCallbackServer({});
    try {
      const refused = expect(cb.code(() => 's', { timeoutMs: 5000 })).rejects.toThrow('the authorization server refused: The user said no');
      const page = await fetch(`http://127.0.0.1:${cb.port}/callback?error=access_denied&error_description=The+user+said+no&state=s`);
      expect(await page.text()).toContain('The sign-in failed: The user said no.');
      await refused;
      await expect(cb.code(() => 's', { timeoutMs: 50 })).rejects.toThrow('no answer from the browser within 0 s');
      const abort = new AbortController();
      const aborted = cb.code(() => 's', { timeoutMs: 5000, signal: abort.signal });
      abort.abort();
      await expect(aborted).rejects.toThrow('the sign-in was cancelled');
    } finally {
      cb.close();
    }
  });

  it('takes the port asked for, and says so when it is taken; a preferred port that is taken gives way', async () => {
    const first = await startCallbackServer({});
    try {
      await expect(startCallbackServer({ port: first.port })).rejects.toThrow(
        `cannot listen for the sign-in on port ${first.port} (oauth.callbackPort): EADDRINUSE`,
      );
      const other = await startCallbackServer({ preferredPort: first.port });
      expect(other.port).not.toBe(first.port);
      other.close();
    } finally {
      first.close();
    }
  });
});
