import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => env?.cleanup());

describe('Bash runs commands', () => {
  it('interleaves stdout and stderr as produced and reports the exit code', async () => {
    env = createToolEnv({ env: { PATH: process.env.PATH } });
    const r = await runTool(bashTool, { command: 'echo one; echo two >&2; echo three; exit 3' }, env.ctx, env.state);
    expect(r.output.stdout).toBe('one\ntwo\nthree');
    expect(r.output.exitCode).toBe(3);
    expect(resultText(r.modelResult)).toBe('one\ntwo\nthree\nExit code 3');
    expect(r.modelResult.isError).toBe(true);
  });
});
