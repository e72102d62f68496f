/** Bash with real processes: output, exit codes, timeouts, aborts, process groups, large output, cd. */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { collapseCarriageReturns } from '../../../src/tools/bash/output.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => env?.cleanup());

function newEnv(): ToolEnv {
  env = createToolEnv({ env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
  env.ctx.env.HOME = env.home;
  return env;
}

/** Is any process alive whose command line contains `tag`? */
function alive(pidFile: string): boolean {
  if (!existsSync(pidFile)) return false;
  return readFileSync(pidFile, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .some((pid) => {
      try {
        process.kill(Number(pid), 0);
        return true;
      } catch {
        return false;
      }
    });
}

async function waitUntil(cond: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

describe('Bash output', () => {
  it('interleaves stdout and stderr as produced and reports a non-zero exit code', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'echo one; echo two >&2; echo three; exit 3' }, env.ctx, env.state);
    expect(r.output.stdout).toBe('one\ntwo\nthree');
    expect(r.output.exitCode).toBe(3);
    expect(resultText(r.modelResult)).toBe('one\ntwo\nthree\nExit code 3');
    expect(r.modelResult.isError).toBe(true);
  });

  it('succeeds quietly with exit code 0 and says when there is no output', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'true' }, env.ctx, env.state);
    expect(resultText(r.modelResult)).toBe('(no output)');
    expect(r.modelResult.isError).toBeFalsy();
  });

  it('treats exit code 1 of grep as "nothing found", not an error', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'echo abc | grep xyz' }, env.ctx, env.state);
    expect(r.output.exitCode).toBe(1);
    expect(resultText(r.modelResult)).toBe('Exit code 1');
    expect(r.modelResult.isError).toBe(false);
  });

  it('strips ANSI colours and collapses carriage-return progress for the model, keeps colours for the person', async () => {
    newEnv();
    const cmd = `printf '\\033[31mred\\033[0m\\n'; printf 'progress 10%%\\rprogress 50%%\\rprogress 100%%\\n'; printf 'crlf line\\r\\n'`;
    const r = await runTool(bashTool, { command: cmd }, env.ctx, env.state);
    expect(r.output.stdout).toBe('red\nprogress 100%\ncrlf line');
    expect(r.output.display).toContain('\u001b[31mred');
  });

  it('collapses carriage returns the way a terminal shows them', () => {
    expect(collapseCarriageReturns('abcdef\rxy\n')).toBe('xycdef\n');
    expect(collapseCarriageReturns('a\r\nb')).toBe('a\nb');
    expect(collapseCarriageReturns('done\r')).toBe('done');
  });

  it('keeps 50 MB of output in a file and gives the model the head and the tail', async () => {
    newEnv();
    const cmd = `seq 1 6000000 | sed 's/$/ xxxxxxxxxxxxxxx/'; echo THE-END`;
    const r = await runTool(bashTool, { command: cmd }, env.ctx, env.state);
    expect(r.output.totalBytes).toBeGreaterThan(50_000_000);
    expect(r.output.outputFile).toBeDefined();
    expect(statSync(r.output.outputFile!).size).toBe(r.output.totalBytes);
    expect(r.output.outputFile!.startsWith(path.join(env.home, '.wicket', 'sessions', 'test-session'))).toBe(true);
    const text = resultText(r.modelResult);
    expect(text.length).toBeLessThan(31_000);
    expect(text.startsWith('1 xxxxxxxxxxxxxxx\n2 xxx')).toBe(true);
    expect(text.endsWith('THE-END')).toBe(true);
    expect(text).toContain(r.output.outputFile!);
  }, 60_000);

  it('inlines output up to 30,000 characters and removes the file', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'seq 1 5000' }, env.ctx, env.state);
    expect(r.output.outputFile).toBeUndefined();
    expect(r.output.stdout.split('\n')).toHaveLength(5000);
  });

  it('yields throttled progress with the tail of the output', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.4; done' }, env.ctx, env.state);
    expect(r.progress.length).toBeGreaterThanOrEqual(1);
    expect(r.progress[0]!.message).toMatch(/tick \d/);
    // A second apart at least, however long a loaded machine makes the command run.
    const at = r.progress.map((p) => (p.data as { elapsedMs: number }).elapsedMs);
    expect(at[0]).toBeGreaterThanOrEqual(1000);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(1000);
  });
});

describe('Bash stops whole process groups', () => {
  it('kills a command that ignores SIGTERM, and its children, on timeout and keeps the output so far', async () => {
    newEnv();
    const pids = env.file('pids');
    const cmd = `trap '' TERM; echo started; (trap '' TERM; sleep 30 & echo $! >> ${pids}; wait) & echo $! >> ${pids}; sleep 30 & echo $! >> ${pids}; wait`;
    const t0 = Date.now();
    const r = await runTool(bashTool, { command: cmd, timeout: 500 }, env.ctx, env.state);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(r.output.timedOut).toBe(true);
    expect(r.output.stdout).toBe('started');
    expect(resultText(r.modelResult)).toContain('Command timed out after 500 ms');
    expect(r.modelResult.isError).toBe(true);
    expect(await waitUntil(() => !alive(pids))).toBe(true);
  });

  it('stops the group when the call is aborted', async () => {
    newEnv();
    const pids = env.file('pids');
    setTimeout(() => env.abort.abort(), 300);
    const r = await runTool(bashTool, { command: `sleep 30 & echo $! > ${pids}; echo waiting; wait` }, env.ctx, env.state);
    expect(r.output.interrupted).toBe(true);
    expect(r.output.stdout).toBe('waiting');
    expect(resultText(r.modelResult)).toContain('interrupted');
    expect(await waitUntil(() => !alive(pids))).toBe(true);
  });

  it('does not leave children behind when the shell exits normally', async () => {
    newEnv();
    const pids = env.file('pids');
    await runTool(bashTool, { command: `(sleep 30 & echo $! > ${pids}) ; echo done` }, env.ctx, env.state);
    expect(await waitUntil(() => !alive(pids))).toBe(true);
  });

  it('keeps the exit code and wait semantics of the command', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'sleep 0.1 & wait; echo ok; exit 7' }, env.ctx, env.state);
    expect(r.output.stdout).toBe('ok');
    expect(r.output.exitCode).toBe(7);
  });
});

describe('Bash working directory', () => {
  it('carries a cd inside the project over to the next call', async () => {
    newEnv();
    mkdirSync(env.file('sub/dir'), { recursive: true });
    const r = await runTool(bashTool, { command: 'cd sub/dir && pwd' }, env.ctx, env.state);
    expect(r.output.stdout).toBe(env.file('sub/dir'));
    expect(env.state.cwd).toBe(env.file('sub/dir'));
    const next = await runTool(bashTool, { command: 'pwd' }, env.nextCall(), env.state);
    expect(next.output.stdout).toBe(env.file('sub/dir'));
  });

  it('resets to the project root when a cd leaves the project, and says so', async () => {
    newEnv();
    const r = await runTool(bashTool, { command: 'cd / && ls >/dev/null' }, env.ctx, env.state);
    expect(env.state.cwd).toBe(env.project);
    expect(resultText(r.modelResult)).toContain(`Shell cwd was reset to ${env.project}`);
  });

  it('accepts a cd into an additional directory', async () => {
    newEnv();
    const extra = path.join(env.root, 'extra');
    mkdirSync(extra);
    const ctx = env.nextCall({ additionalDirs: [extra] });
    await runTool(bashTool, { command: `cd ${extra}` }, ctx, env.state);
    expect(env.state.cwd).toBe(extra);
  });

  it('does not move the cwd for a cd in a subshell', async () => {
    newEnv();
    mkdirSync(env.file('a'));
    const r = await runTool(bashTool, { command: '(cd a)' }, env.ctx, env.state);
    expect(r.output.newCwd).toBeUndefined();
    expect(env.state.cwd).toBe(env.project);
  });
});

describe('Bash refuses nonsense input', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['empty command', { command: '   ' }, /command is empty/],
    ['NUL byte', { command: 'echo a\u0000b' }, /NUL byte/],
    ['over 100 KB', { command: `echo ${'x'.repeat(101 * 1024)}` }, /over the 102400-byte limit/],
    ['timeout 0', { command: 'true', timeout: 0 }, /timeout must be between 1 and 600000/],
    ['timeout too long', { command: 'true', timeout: 600_001 }, /timeout must be between 1 and 600000/],
  ];
  for (const [name, input, message] of cases) {
    it(`refuses ${name} at validation`, async () => {
      newEnv();
      const r = await tryRunTool(bashTool, input, env.ctx, env.state);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.stage).toBe('validate');
        expect(r.message).toMatch(message);
      }
    });
  }

  it('refuses unknown and mistyped fields at the schema', async () => {
    newEnv();
    expect((await tryRunTool(bashTool, { command: 'ls', cwd: '/' }, env.ctx)).ok).toBe(false);
    expect((await tryRunTool(bashTool, { command: 5 }, env.ctx)).ok).toBe(false);
    expect((await tryRunTool(bashTool, { command: 'ls', run_in_background: 'yes' }, env.ctx)).ok).toBe(false);
  });

  it('writes nothing to the session folder for a refused call', async () => {
    newEnv();
    await tryRunTool(bashTool, { command: '' }, env.ctx);
    expect(existsSync(path.join(env.home, '.wicket', 'sessions'))).toBe(false);
    writeFileSync(env.file('x'), '');
  });
});
