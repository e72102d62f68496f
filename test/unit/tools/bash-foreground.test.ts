/** Ctrl+B: a Bash command running in the foreground goes on as a background task; its call returns at once. */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { foregroundCount, sendForegroundToBackground } from '../../../src/tools/bash/foreground.js';
import { getBackgroundTask, stopBackgroundTask } from '../../../src/tools/tasks/registry.js';
import { createToolEnv, resultText, runTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => env?.cleanup());

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

describe('sending a running command to the background', () => {
  it('the call returns the task id at once; the command goes on and its output file fills', async () => {
    env = createToolEnv({ env: { PATH: process.env.PATH } });
    // The command cannot end before the test creates `go`, so the call returned while it still ran.
    const go = env.file('go');
    const call = runTool(
      bashTool,
      { command: `echo first; until [ -e ${go} ]; do sleep 0.05; done; echo second`, description: 'slow echo' },
      env.ctx,
      env.state,
    );
    await until(() => foregroundCount() > 0);
    expect(sendForegroundToBackground()).toBe(1);
    const r = await call;
    const id = r.output.backgroundTaskId!;
    expect(resultText(r.modelResult)).toContain(`Command running in background with ID: ${id}`);
    expect(resultText(r.modelResult)).toContain('Ctrl+B');
    const task = getBackgroundTask(id)!;
    expect(task.status).toBe('running');
    writeFileSync(go, '');
    await task.settled;
    expect(task.status).toBe('completed');
    expect(readFileSync(task.outputFile, 'utf8')).toMatch(/first\nsecond/);
    expect(foregroundCount()).toBe(0);
  });

  it('a command that ended already is not affected; nothing runs, nothing is sent', async () => {
    env = createToolEnv({ env: { PATH: process.env.PATH } });
    const r = await runTool(bashTool, { command: 'echo done' }, env.ctx, env.state);
    expect(r.output.backgroundTaskId).toBeUndefined();
    expect(sendForegroundToBackground()).toBe(0);
  });

  it('a task sent to the background can still be stopped', async () => {
    env = createToolEnv({ env: { PATH: process.env.PATH } });
    const call = runTool(bashTool, { command: 'sleep 30' }, env.ctx, env.state);
    await until(() => foregroundCount() > 0);
    sendForegroundToBackground();
    const id = (await call).output.backgroundTaskId!;
    await stopBackgroundTask(id, 200, 'person');
    expect(getBackgroundTask(id)!.status).toBe('killed');
  });
});
