/**
 * The loopback end of a sign-in: an HTTP server on 127.0.0.1 that the authorization server sends
 * the browser back to (`http://localhost:<port>/callback?code=…&state=…`). It takes the first
 * callback whose `state` is the one sent, answers the browser with a short page, and hands the code
 * over; a callback with another state is refused and the wait goes on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackServer {
  /** The redirect URL to register and send: `http://localhost:<port>/callback`. */
  redirectUrl: string;
  port: number;
  /** The authorization code, once the browser came back with `expectedState()`; rejects on an error answer, a timeout or an abort. */
  code(expectedState: () => string | undefined, o: { timeoutMs: number; signal?: AbortSignal }): Promise<string>;
  close(): void;
}

const PATH = '/callback';

type Deliver = (url: URL, res: http.ServerResponse) => void;

/**
 * Listens on `port` (the entry's `oauth.callbackPort`); else on `preferredPort` (the one used last
 * time, so a dynamic registration stays valid) when it is free, else on any free port.
 */
export async function startCallbackServer(o: { port?: number; preferredPort?: number }): Promise<CallbackServer> {
  let deliver: Deliver | undefined;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== PATH || !deliver) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    deliver(url, res);
  });
  if (o.port !== undefined) {
    await listen(server, o.port).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`cannot listen for the sign-in on port ${o.port} (oauth.callbackPort): ${err.code ?? err.message}`);
    });
  } else if (
    !o.preferredPort ||
    !(await listen(server, o.preferredPort).then(
      () => true,
      () => false,
    ))
  ) {
    await listen(server, 0);
  }
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://localhost:${port}${PATH}`,
    port,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
    code: (expectedState, w) =>
      new Promise<string>((resolve, reject) => {
        const finish = (err: Error | undefined, code?: string) => {
          clearTimeout(timer);
          w.signal?.removeEventListener('abort', onAbort);
          deliver = undefined;
          if (err) reject(err);
          else resolve(code!);
        };
        const timer = setTimeout(() => finish(new Error(`no answer from the browser within ${Math.round(w.timeoutMs / 1000)} s`)), w.timeoutMs);
        timer.unref();
        const onAbort = () => finish(new Error('the sign-in was cancelled'));
        if (w.signal?.aborted) return onAbort();
        w.signal?.addEventListener('abort', onAbort, { once: true });
        deliver = answer(expectedState, finish);
      }),
  };
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Answers one callback: the code when the state matches, the authorization server's refusal, or a page saying what is wrong. */
function answer(expectedState: () => string | undefined, finish: (err: Error | undefined, code?: string) => void): Deliver {
  return (url, res) => {
    const q = url.searchParams;
    const expected = expectedState();
    if (!expected || q.get('state') !== expected)
      return page(res, 400, 'This sign-in link is not the one wicket is waiting for (its state does not match). Start the sign-in again.');
    const error = q.get('error');
    if (error) {
      const why = q.get('error_description') ?? error;
      page(res, 400, `The sign-in failed: ${why}. You can close this window.`);
      return finish(new Error(`the authorization server refused: ${why}`));
    }
    const code = q.get('code');
    if (!code) return page(res, 400, 'The authorization server sent no code. Start the sign-in again.');
    page(res, 200, 'Signed in. You can close this window and go back to wicket.');
    finish(undefined, code);
  };
}

function page(res: http.ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><html><head><meta charset="utf-8"><title>wicket</title></head><body><p>${escaped}</p></body></html>\n`);
}
