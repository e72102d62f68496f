/**
 * The app calls the person back only while the terminal does not have focus, the terminal's focus
 * reports never reach an input as text, and the idle wait starts again at each key typed.
 */
import { EventEmitter } from 'node:events';
import { Text, render, useInput } from 'ink';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Attention, PERMISSION, WAITING } from '../../src/ui/attention.js';
import { useTerminalInput } from '../../src/ui/hooks/use-terminal-input.js';
import { tick, waitFor } from './helpers.js';

function attention() {
  const calls: string[] = [];
  const timers: Array<{ fn: () => void; ms: number; live: boolean }> = [];
  const a = new Attention({
    notify: (m) => calls.push(m),
    idle: () => calls.push('idle hook'),
    idleMs: () => 800,
    setTimer: (fn, ms) => {
      const t = { fn, ms, live: true };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => {
      (t as { live: boolean }).live = false;
    },
  });
  const fire = () => {
    for (const t of timers.filter((x) => x.live)) {
      t.live = false;
      t.fn();
    }
  };
  const live = () => timers.filter((t) => t.live).length;
  return { a, calls, fire, live, timers };
}

describe('Attention', () => {
  it('notifies at turn end and on a permission prompt while focus is unknown or lost, not while the terminal has it', () => {
    const { a, calls } = attention();
    a.turnEnded();
    a.permissionAsked();
    expect(calls).toEqual([WAITING, PERMISSION]);
    a.focused('in');
    a.turnEnded();
    a.permissionAsked();
    expect(calls).toEqual([WAITING, PERMISSION]);
    a.focused('out');
    a.turnEnded();
    expect(calls).toEqual([WAITING, PERMISSION, WAITING]);
  });

  it('the idle hook fires after the threshold; each key typed starts the wait again; a new turn stops it', () => {
    const { a, calls, fire, live, timers } = attention();
    a.focused('in');
    a.typed(); // nothing waits yet
    expect(live()).toBe(0);
    a.turnEnded();
    expect(timers.at(-1)?.ms).toBe(800);
    a.typed();
    a.typed();
    expect(timers).toHaveLength(3);
    expect(live()).toBe(1);
    fire();
    expect(calls).toEqual(['idle hook']);
    a.typed(); // fired: typing does not arm it again
    expect(live()).toBe(0);
    a.turnEnded();
    a.busy();
    expect(live()).toBe(0);
  });
});

class TtyOut extends EventEmitter {
  isTTY = true;
  columns = 80;
  rows = 24;
  written: string[] = [];
  write = (s: string) => {
    this.written.push(s);
    return true;
  };
}

class TtyIn extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  write(s: string) {
    this.data = s;
    this.emit('readable');
  }
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
}

function Probe({ focus }: { focus: string[] }) {
  const [typed, setTyped] = useState('');
  useTerminalInput({ onFocus: (f) => focus.push(f), onKey: () => focus.push('key') });
  useInput((input) => setTyped((t) => t + input));
  return <Text>typed:{typed}.</Text>;
}

describe('useTerminalInput', () => {
  it('turns focus reporting on and off, and takes the focus reports out of the keys', async () => {
    const stdout = new TtyOut();
    const stdin = new TtyIn();
    const focus: string[] = [];
    const app = render(<Probe focus={focus} />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      patchConsole: false,
      exitOnCtrlC: false,
    });
    await waitFor(() => expect(stdout.written).toContain('\x1b[?1004h'));
    stdin.write('a\x1b[Ob\x1b[I');
    await tick(30);
    stdin.write('c');
    await waitFor(() => expect(stdout.written.at(-1)).toContain('typed:abc.'));
    expect(focus).toEqual(['key', 'out', 'key', 'in', 'key']);
    expect(stdout.written.join('')).not.toContain('[O');
    app.unmount();
    expect(stdout.written.at(-1)).toBe('\x1b[?1004l');
  });
});
