/** Background tasks with real processes: start, read, wait, stop, and dying with wicket. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { findTool, BUILTIN_TOOLS } from '../../../src/tools/registry.js';
import { killAllBackgroundTasks, listBackgroundTasks, taskOutputTool, taskStopTool } from '../../../src/tools/tasks/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => {
  killAllBackgroundTasks();
  env?.cleanup();
});

function newEnv(): ToolEnv {
  env = createToolEnv({ env: { PATH: process.env.PATH } });
  return env;
}

function pidsAlive(file: string): boolean {
  if (!existsSync(file)) return false;
  return readFileSync(file, 'utf8')
    .split(/\s+/)
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

/** Polls `cond` until it holds; a throw (a file not written yet) counts as not yet. */
async function until(cond: () => boolean, ms = 8000): Promise<boolean> {
  const holds = () => {
    try {
      return cond();
    } catch {
      return false;
    }
  };
  const end = Date.now() + ms;
  while (Date.now() < end && !holds()) await new Promise((r) => setTimeout(r, 50));
  return holds();
}

async function start(command: string): Promise<string> {
  const r = await runTool(bashTool, { command, run_in_background: true }, env.nextCall(), env.state);
  expect(resultText(r.modelResult)).toMatch(/running in background with ID: b[0-9a-f]{8}/);
  return r.output.backgroundTaskId!;
}

describe('background tasks', () => {
  it('returns at once and hands over new output on each read', async () => {
    newEnv();
    // The command cannot go past "first" until the test creates `go`: the start returned while it ran, however slow the machine.
    const go = env.file('go');
    const id = await start(`echo first; until [ -e ${go} ]; do sleep 0.05; done; echo second; sleep 0.2; echo third; exit 4`);
    const task = listBackgroundTasks().find((t) => t.id === id)!;
    expect(await until(() => readFileSync(task.outputFile, 'utf8') === 'first\n')).toBe(true);
    const a = await runTool(taskOutputTool, { task_id: id, block: false }, env.nextCall());
    expect(a.output).toMatchObject({ status: 'running', output: 'first', exitCode: null });
    writeFileSync(go, '');
    const b = await runTool(taskOutputTool, { task_id: id }, env.nextCall());
    expect(b.output).toMatchObject({ status: 'failed', exitCode: 4, output: 'second\nthird' });
    expect(resultText(b.modelResult)).toContain('<exit_code>4</exit_code>');
    const c = await runTool(taskOutputTool, { task_id: id, block: false }, env.nextCall());
    expect(c.output.output).toBe('');
    expect(resultText(c.modelResult)).toContain('(no new output)');
    expect(readFileSync(b.output.outputFile, 'utf8')).toBe('first\nsecond\nthird\n');
  });

  it('gives up waiting after timeout and says the task is still running', async () => {
    newEnv();
    const id = await start('sleep 5');
    const r = await runTool(taskOutputTool, { task_id: id, timeout: 200 }, env.nextCall());
    expect(r.output).toMatchObject({ status: 'running', waitTimedOut: true });
  });

  it('stops a task that ignores SIGTERM, with every process it forked', async () => {
    newEnv();
    const pids = env.file('pids');
    const id = await start(`trap '' TERM; (trap '' TERM; sleep 60) & echo $! >> ${pids}; sleep 60 & echo $! >> ${pids}; echo $$ >> ${pids}; wait`);
    expect(await until(() => pidsAlive(pids) && readFileSync(pids, 'utf8').trim().split('\n').length === 3)).toBe(true);
    const r = await runTool(taskStopTool, { task_id: id }, env.nextCall());
    expect(r.output).toMatchObject({ stopped: true, status: 'killed' });
    expect(resultText(r.modelResult)).toMatch(/^Stopped task b/);
    expect(await until(() => !pidsAlive(pids))).toBe(true);
    const again = await runTool(taskStopTool, { task_id: id }, env.nextCall());
    expect(resultText(again.modelResult)).toContain('had already ended');
  });

  it('accepts the old names and parameters (BashOutput/KillShell, shell_id)', async () => {
    newEnv();
    expect(findTool(BUILTIN_TOOLS, 'BashOutput')).toBe(taskOutputTool);
    expect(findTool(BUILTIN_TOOLS, 'KillShell')).toBe(taskStopTool);
    const id = await start('sleep 30');
    const out = await runTool(taskOutputTool, { shell_id: id, block: false }, env.nextCall());
    expect(out.output.status).toBe('running');
    const stop = await runTool(taskStopTool, { shell_id: id }, env.nextCall());
    expect(stop.output.stopped).toBe(true);
  });

  it('refuses an unknown id and names the running tasks', async () => {
    newEnv();
    const id = await start('sleep 30');
    const r = await tryRunTool(taskOutputTool, { task_id: 'nope' }, env.nextCall());
    expect(r).toMatchObject({ ok: false, stage: 'validate' });
    if (!r.ok) expect(r.message).toContain(`No background task with id "nope". Running tasks: ${id} (sleep 30)`);
    expect(await tryRunTool(taskStopTool, {}, env.nextCall())).toMatchObject({ ok: false, stage: 'validate' });
    expect(await tryRunTool(taskOutputTool, { task_id: id, timeout: -1 }, env.nextCall())).toMatchObject({ ok: false, stage: 'validate' });
  });

  it('keeps large background output bounded per read', async () => {
    newEnv();
    const id = await start('seq 1 200000');
    const r = await runTool(taskOutputTool, { task_id: id }, env.nextCall());
    expect(r.output.status).toBe('completed');
    expect(r.output.output.length).toBeLessThanOrEqual(30_000);
    expect(r.output.output.endsWith('200000')).toBe(true);
    expect(r.output.skippedBytes).toBeGreaterThan(0);
  });

  it('killAllBackgroundTasks() kills every task', async () => {
    newEnv();
    const pids = env.file('pids');
    await start(`sleep 60 & echo $! >> ${pids}; wait`);
    await start(`sleep 60 & echo $! >> ${pids}; wait`);
    expect(await until(() => readFileSync(pids, 'utf8').trim().split('\n').length === 2)).toBe(true);
    killAllBackgroundTasks();
    expect(await until(() => !pidsAlive(pids))).toBe(true);
    expect(listBackgroundTasks().filter((t) => t.status === 'running')).toEqual([]);
  });
});

describe('background tasks die with wicket', () => {
  /** A separate node process that starts a background task, then ends the way `ending` says. */
  async function startAndEnd(ending: 'exit' | 'sigkill' | 'sigterm'): Promise<string> {
    const pids = env.file(`pids-${ending}`);
    const script = env.file(`host-${ending}.mts`);
    writeFileSync(
      script,
      `import { existsSync, readFileSync } from 'node:fs';
import { startBackgroundTask } from ${JSON.stringify(path.join(ROOT, 'src/tools/tasks/registry.ts'))};
import { loadShellRunner } from ${JSON.stringify(path.join(ROOT, 'src/tools/bash/spawn.ts'))};
await loadShellRunner();
startBackgroundTask({ command: 'sleep 60 & echo $! >> ${pids}; echo $$ >> ${pids}; wait', cwd: ${JSON.stringify(env.project)}, env: process.env, outputFile: ${JSON.stringify(env.file(`out-${ending}`))} });
// Ends once both pids are written (the task is under way), not after a fixed time a slow machine may not meet.
const written = setInterval(() => {
  if (!existsSync(${JSON.stringify(pids)}) || readFileSync(${JSON.stringify(pids)}, 'utf8').trim().split('\\n').length < 2) return;
  clearInterval(written);
  ${ending === 'exit' ? 'process.exit(0)' : 'console.log("ready")'};
}, 20);
setInterval(() => {}, 1000);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    if (ending !== 'exit') {
      await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
      child.kill(ending === 'sigkill' ? 'SIGKILL' : 'SIGTERM');
    }
    await new Promise((resolve) => child.on('exit', resolve));
    return pids;
  }

  for (const ending of ['exit', 'sigterm', 'sigkill'] as const) {
    it(`when wicket ends by ${ending}`, async () => {
      newEnv();
      const pids = await startAndEnd(ending);
      expect(existsSync(pids)).toBe(true);
      expect(await until(() => !pidsAlive(pids))).toBe(true);
    }, 30_000);
  }
});
