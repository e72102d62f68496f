import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StdoutWriter } from '../../../src/cli/stdout.js';

const dirs: string[] = [];
const fds: number[] = [];
afterEach(() => {
  for (const fd of fds.splice(0)) {
    try {
      closeSync(fd);
    } catch {
      // a stream already closed it
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'wicket-stdout-'));
  dirs.push(d);
  return d;
}

/** A named pipe, both ends open without blocking: [read end, write end]. */
function fifo(): [number, number] {
  const file = path.join(tmp(), 'pipe');
  execFileSync('mkfifo', [file]);
  const r = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const w = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  fds.push(r, w);
  return [r, w];
}

describe('StdoutWriter', () => {
  it('writes the text to its descriptor, in order', async () => {
    const file = path.join(tmp(), 'out.txt');
    const fd = openSync(file, 'w');
    fds.push(fd);
    const out = new StdoutWriter({ fd });
    out.write('one ');
    out.write('');
    out.write('twø\n');
    await out.flushed();
    expect(readFileSync(file, 'utf8')).toBe('one twø\n');
    expect(out.gone).toBe(false);
  });

  it('stops writing, and says so once, when the reader has gone away', () => {
    const [r, w] = fifo();
    closeSync(r);
    fds.splice(fds.indexOf(r), 1);
    let told = 0;
    const out = new StdoutWriter({ fd: w, onGone: () => told++ });
    out.write('nobody reads this\n');
    out.write('nor this\n');
    expect(out.gone).toBe(true);
    expect(told).toBe(1);
  });

  it('hands over to the stream when a non-blocking descriptor is full, keeping everything in order', async () => {
    const [r, w] = fifo();
    const out = new StdoutWriter({ fd: w, stream: () => new Socket({ fd: w, readable: false, writable: true }) });
    const big = 'x'.repeat(300 * 1024); // more than a pipe holds: the blocking write gets EAGAIN
    out.write(big);
    out.write('after\n');
    const reader = new Socket({ fd: r, readable: true, writable: false });
    const chunks: Buffer[] = [];
    reader.on('data', (c: Buffer) => chunks.push(c));
    await out.flushed();
    await new Promise<void>((resolve) => {
      const check = () => (Buffer.concat(chunks).length >= big.length + 6 ? resolve() : setTimeout(check, 5));
      check();
    });
    reader.destroy();
    expect(Buffer.concat(chunks).toString()).toBe(`${big}after\n`);
    expect(out.gone).toBe(false);
  });
});
