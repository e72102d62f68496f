import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startPreconnect, takePreconnected } from '../../../src/api/preconnect.js';

let server: Server | undefined;
const accepted: Socket[] = [];

async function listen(): Promise<number> {
  server = createServer((s) => accepted.push(s));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as { port: number }).port;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

afterEach(async () => {
  takePreconnected('http:', '127.0.0.1', 1); // clears a slot a test left
  for (const s of accepted.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('preconnect', () => {
  it('opens the connection before any request and hands it out once, to the same origin only', async () => {
    const port = await listen();
    startPreconnect(`http://127.0.0.1:${port}/some/prefix`);
    await waitFor(() => accepted.length === 1);
    expect(accepted).toHaveLength(1);
    expect(takePreconnected('http:', '127.0.0.1', port + 1)).toBeUndefined(); // another origin: not used…
    const socket = takePreconnected('http:', '127.0.0.1', port); // …and still there for the right one
    expect(socket).toBeDefined();
    expect(takePreconnected('http:', '127.0.0.1', port)).toBeUndefined();
    socket!.destroy();
  });

  it('never hands out a connection that failed', async () => {
    const port = await listen();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    startPreconnect(`http://127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
    expect(takePreconnected('http:', '127.0.0.1', port)).toBeUndefined();
  });

  it('ignores a base URL that is not an http(s) URL', () => {
    expect(() => startPreconnect('not a url')).not.toThrow();
    expect(() => startPreconnect('ftp://example.com')).not.toThrow();
    expect(takePreconnected('ftp:', 'example.com', 21)).toBeUndefined();
  });
});
