/**
 * Drives the BUILT binary in a real pseudo-terminal through tmux, as a person would: type, press
 * keys, read the screen. Each driver has its own tmux server (its own socket), so tests never touch
 * another tmux session. The pane stays after wicket exits and shows `[exited N]`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { BIN_PATH, cliEnv, REPO_ROOT } from '../support/run-cli.js';

/** On the screen once the app waits for a prompt. */
export const READY = 'shift+tab to cycle';

/** Things to close after each test of the file, last added first (register in a test with `push`). */
export function cleanupsAfterEach(): Array<() => unknown> {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Builds dist/ when it is missing (the tests run the built binary). */
export function ensureBuilt(): void {
  if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'entry.cjs'))) execFileSync(process.execPath, ['build.mjs'], { cwd: REPO_ROOT, stdio: 'ignore' });
}

export interface TuiOptions {
  cwd: string;
  home: string;
  baseUrl?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  columns?: number;
  rows?: number;
  /** Another copy of bin/wicket.js to run (default: the repository's). */
  bin?: string;
}

export interface Tui {
  /** Types text literally (no key names). */
  type(text: string): void;
  /** Presses tmux keys: 'Enter', 'Escape', 'BTab', 'C-c', 'C-d', 'Up', '1'. */
  press(...keys: string[]): void;
  /** Pastes text as a bracketed paste. */
  paste(text: string): void;
  /** The visible screen, trailing blank lines removed. */
  screen(): string;
  /** The screen plus scrollback. */
  history(): string;
  /** The screen plus scrollback, with its color escapes. */
  colored(): string;
  waitFor(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  close(): void;
}

let counter = 0;

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function startTui(opts: TuiOptions): Tui {
  const socket = `wicket-e2e-${process.pid}-${++counter}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const env = cliEnv({ home: opts.home, baseUrl: opts.baseUrl, env: { CI: undefined, TERM: 'xterm-256color', ...opts.env } });
  const envArgs = Object.entries(env).map(([k, v]) => quote(`${k}=${v}`));
  const command = ['env', '-i', ...envArgs, quote(process.execPath), quote(opts.bin ?? BIN_PATH), ...(opts.args ?? []).map(quote)].join(' ');
  const shell = `cd ${quote(opts.cwd)} && ${command}; echo "[exited $?]"; sleep 600`;
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(opts.columns ?? 100), '-y', String(opts.rows ?? 32), shell);
  const screen = () => tmux('capture-pane', '-p', '-t', 'main').replace(/\s+$/, '');
  return {
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    press: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    paste(text) {
      tmux('set-buffer', '-b', 'p', text);
      tmux('paste-buffer', '-p', '-b', 'p', '-t', 'main');
    },
    screen,
    history: () => tmux('capture-pane', '-p', '-S', '-2000', '-t', 'main').replace(/\s+$/, ''),
    colored: () => tmux('capture-pane', '-p', '-e', '-S', '-2000', '-t', 'main'),
    async waitFor(pattern, timeoutMs = 20_000) {
      const start = Date.now();
      let last = '';
      for (;;) {
        last = screen();
        if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
        if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${String(pattern)}; the screen shows:\n${last}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
