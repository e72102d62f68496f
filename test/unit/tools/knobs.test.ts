/**
 * Claude Code's knobs as the tools see them, with real processes and files: BASH_DEFAULT_TIMEOUT_MS,
 * BASH_MAX_TIMEOUT_MS, BASH_MAX_OUTPUT_LENGTH (and settings bashOutputMaxChars), settings
 * respectGitignore for Glob and Grep, settings plansDirectory for ExitPlanMode.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { bashLimits } from '../../../src/tools/bash/limits.js';
import { exitPlanModeTool } from '../../../src/tools/exit-plan-mode/index.js';
import { globTool } from '../../../src/tools/glob/index.js';
import { grepTool } from '../../../src/tools/grep/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(() => initBashParser());
afterEach(() => env?.cleanup());

function newEnv(vars: Record<string, string> = {}, settings: Record<string, unknown> = {}): ToolEnv {
  env = createToolEnv({ env: { PATH: process.env.PATH, ...vars }, settings });
  env.ctx.env.HOME = env.home;
  return env;
}

/** The x's of the output (its head and tail), not counting the note's file name, whose random letters may hold an x. */
function outputXs(text: string): number {
  return (text.match(/x{20,}/g) ?? []).reduce((sum, run) => sum + run.length, 0);
}

describe('Bash limits from the environment', () => {
  it('BASH_MAX_OUTPUT_LENGTH: the model reads that many characters, the rest goes to a file', async () => {
    newEnv({ BASH_MAX_OUTPUT_LENGTH: '1000' });
    const r = await runTool(bashTool, { command: "head -c 5000 /dev/zero | tr '\\0' 'x'" }, env.nextCall());
    const text = resultText(r.modelResult);
    const xs = outputXs(text);
    expect(xs).toBeGreaterThan(900);
    expect(xs).toBeLessThanOrEqual(1000);
    expect(r.output.outputFile && readFileSync(r.output.outputFile, 'utf8').length).toBe(5000);
    expect(text).toContain('output truncated');
  });

  it('without it, the same output comes back whole (default 30,000); bashOutputMaxChars replaces the variable', async () => {
    newEnv();
    const whole = await runTool(bashTool, { command: "head -c 5000 /dev/zero | tr '\\0' 'x'" }, env.nextCall());
    expect(resultText(whole.modelResult)).toBe('x'.repeat(5000));
    const set = await runTool(
      bashTool,
      { command: "head -c 5000 /dev/zero | tr '\\0' 'x'" },
      env.nextCall({ settings: { bashOutputMaxChars: 2000 }, env: { ...env.ctx.env, BASH_MAX_OUTPUT_LENGTH: '100' } }),
    );
    const xs = outputXs(resultText(set.modelResult));
    expect(xs).toBeGreaterThan(1800);
    expect(xs).toBeLessThanOrEqual(2000);
  });

  it('BASH_DEFAULT_TIMEOUT_MS stops a call that gives no timeout', async () => {
    newEnv({ BASH_DEFAULT_TIMEOUT_MS: '400' });
    const started = Date.now();
    const r = await runTool(bashTool, { command: 'sleep 5' }, env.nextCall());
    expect(Date.now() - started).toBeLessThan(4000);
    expect(r.output.timedOut).toBe(true);
    expect(resultText(r.modelResult)).toContain('timed out after 400 ms');
  });

  it('BASH_MAX_TIMEOUT_MS caps what a call may ask for, and the model is told the limits', async () => {
    newEnv({ BASH_MAX_TIMEOUT_MS: '1000', BASH_DEFAULT_TIMEOUT_MS: '500' });
    const refused = await tryRunTool(bashTool, { command: 'true', timeout: 5000 }, env.nextCall());
    expect(refused).toMatchObject({ ok: false, stage: 'validate', message: expect.stringContaining('between 1 and 1000 ms') });
    expect(bashTool.description({ cwd: '/', platform: 'linux', env: { BASH_MAX_TIMEOUT_MS: '1000', BASH_DEFAULT_TIMEOUT_MS: '500' } })).toContain(
      'default 500, at most 1000',
    );
  });

  it('the maximum is never below the default, spellings like 2e3 and 64_000 count, nonsense keeps the default', () => {
    expect(bashLimits({ BASH_DEFAULT_TIMEOUT_MS: '900000' })).toMatchObject({ defaultTimeoutMs: 900_000, maxTimeoutMs: 900_000 });
    expect(bashLimits({ BASH_DEFAULT_TIMEOUT_MS: '2e3', BASH_MAX_OUTPUT_LENGTH: '64_000' })).toMatchObject({ defaultTimeoutMs: 2000, outputChars: 64_000 });
    expect(bashLimits({ BASH_DEFAULT_TIMEOUT_MS: 'soon', BASH_MAX_OUTPUT_LENGTH: '999999' })).toEqual({
      defaultTimeoutMs: 120_000,
      maxTimeoutMs: 600_000,
      outputChars: 150_000,
    });
  });
});

describe('settings respectGitignore', () => {
  function project(): void {
    newEnv();
    writeFileSync(env.file('.gitignore'), 'build/\n');
    mkdirSync(env.file('build'));
    writeFileSync(env.file('build/out.txt'), 'needle\n');
    writeFileSync(env.file('src.txt'), 'needle\n');
  }

  it('by default .gitignore hides files from Grep and Glob', async () => {
    project();
    const grep = await runTool(grepTool, { pattern: 'needle' }, env.nextCall());
    expect(resultText(grep.modelResult)).not.toContain('out.txt');
    const glob = await runTool(globTool, { pattern: '**/*.txt' }, env.nextCall());
    expect(resultText(glob.modelResult)).not.toContain('out.txt');
  });

  it('false: Grep and Glob find the ignored files too', async () => {
    project();
    const settings = { respectGitignore: false };
    const grep = await runTool(grepTool, { pattern: 'needle' }, env.nextCall({ settings }));
    expect(resultText(grep.modelResult)).toContain('build/out.txt');
    const glob = await runTool(globTool, { pattern: '**/*.txt' }, env.nextCall({ settings }));
    expect(resultText(glob.modelResult)).toContain('out.txt');
  });
});

describe('settings plansDirectory', () => {
  const plan = '# Rename the helper\n\n1. rename it\n2. run the tests\n';

  it('an approved plan is saved there, relative to the project, and the model is told where', async () => {
    newEnv({}, { plansDirectory: './plans' });
    const r = await runTool(exitPlanModeTool, { plan }, env.nextCall({ permissionMode: 'plan' }));
    const dir = env.file('plans');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(dir, files[0]!), 'utf8')).toBe(plan);
    expect(resultText(r.modelResult)).toContain(path.join(dir, files[0]!));
  });

  it('without it, plans go to ~/.claude/plans (CLAUDE_CONFIG_DIR moves it)', async () => {
    newEnv();
    await runTool(exitPlanModeTool, { plan }, env.nextCall({ permissionMode: 'plan' }));
    expect(readdirSync(path.join(env.home, '.claude', 'plans'))).toHaveLength(1);
    const moved = path.join(env.root, 'cfg');
    await runTool(exitPlanModeTool, { plan }, env.nextCall({ permissionMode: 'plan', env: { CLAUDE_CONFIG_DIR: moved } }));
    expect(existsSync(path.join(moved, 'plans'))).toBe(true);
  });
});
