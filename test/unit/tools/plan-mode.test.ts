/**
 * Plan mode in Claude Code 2.1's shape: EnterPlanMode puts the session in plan mode and names the
 * plan file; plan mode lets Write and Edit change that one file (not another, not through a symbolic
 * link); ExitPlanMode with no input reads the plan from the file, and its approval leaves plan mode
 * in the mode the person chose.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyRules } from '../../../src/base/permission-types.js';
import { executeCall, prepareCall, type RunnerEnv } from '../../../src/core/tool-runner.js';
import { decidePermission } from '../../../src/permissions/decide.js';
import { sessionPlanFile } from '../../../src/settings/plan-file.js';
import { enterPlanModeTool } from '../../../src/tools/enter-plan-mode/index.js';
import { exitPlanModeTool } from '../../../src/tools/exit-plan-mode/index.js';
import { editTool } from '../../../src/tools/edit/index.js';
import { writeTool } from '../../../src/tools/write/index.js';
import { createToolEnv, resultText, tryRunTool, type ToolEnv } from '../../support/tool-context.js';
import { fakeEnv } from '../core/fake-tools.js';

let env: ToolEnv;
afterEach(() => env?.cleanup());

async function run(r: RunnerEnv, name: string, input: unknown) {
  const p = prepareCall({ id: 't1', name, input }, r);
  if (p.kind === 'done') return p.outcome;
  return executeCall(p, r, new AbortController().signal);
}

/** A runner env whose session lives in the temporary project and home of `env`. */
function runnerIn(e: ToolEnv, o: Parameters<typeof fakeEnv>[0]) {
  const made = fakeEnv(o);
  made.env.base = { ...made.env.base, projectRoot: e.project, homeDir: e.home, sessionId: e.ctx.sessionId };
  made.env.state.cwd = e.project;
  return made;
}

describe('plan mode', () => {
  it('EnterPlanMode needs no approval, turns plan mode on and names the plan file', async () => {
    env = createToolEnv();
    const r = runnerIn(env, { tools: [enterPlanModeTool] });
    const out = await run(r.env, 'EnterPlanMode', {});
    expect(r.asked).toEqual([]);
    expect(r.env.permission.mode).toBe('plan');
    expect(out.result.content).toContain(sessionPlanFile(env.ctx));
    const again = await tryRunTool(enterPlanModeTool, {}, env.nextCall({ permissionMode: 'plan' }));
    expect(again.ok ? '' : again.message).toContain('already on');
  });

  it('lets Write and Edit change the plan file in plan mode, and nothing else', async () => {
    env = createToolEnv({ permissionMode: 'plan' });
    const file = sessionPlanFile(env.ctx);
    const decide = (tool: typeof writeTool | typeof editTool, input: unknown) =>
      decidePermission({ tool, input, ctx: env.ctx, rules: emptyRules(), mode: 'plan' });
    expect(await decide(writeTool, { file_path: file, content: '# plan' })).toMatchObject({ behavior: 'allow' });
    expect(await decide(editTool, { file_path: file, old_string: 'a', new_string: 'b' })).toMatchObject({ behavior: 'allow' });
    expect(await decide(writeTool, { file_path: env.file('src.ts'), content: 'x' })).toMatchObject({ behavior: 'deny', by: 'mode plan' });
    expect(await decide(writeTool, { file_path: `${file}.bak`, content: 'x' })).toMatchObject({ behavior: 'deny' });
  });

  it('a symbolic link at the plan file is not written through', async () => {
    env = createToolEnv({ permissionMode: 'plan' });
    const file = sessionPlanFile(env.ctx);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(env.file('victim.txt'), 'keep');
    symlinkSync(env.file('victim.txt'), file);
    const d = await decidePermission({ tool: writeTool, input: { file_path: file, content: 'x' }, ctx: env.ctx, rules: emptyRules(), mode: 'plan' });
    expect(d.behavior).toBe('deny');
  });

  it('ExitPlanMode with no input reads the plan file; with no plan written it says where to write it', async () => {
    env = createToolEnv({ permissionMode: 'plan' });
    const file = sessionPlanFile(env.ctx);
    const none = await tryRunTool(exitPlanModeTool, {}, env.nextCall({ permissionMode: 'plan' }));
    expect(none.ok ? '' : none.message).toContain(`write your plan to ${file}`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '# Plan\n1. rename the helper\n');
    expect(exitPlanModeTool.askPreview?.({}, env.ctx)).toContain('rename the helper');
    const r = await tryRunTool(exitPlanModeTool, {}, env.nextCall({ permissionMode: 'plan' }));
    if (!r.ok) throw new Error(r.message);
    expect(resultText(r.modelResult)).toContain('User has approved your plan');
    expect(resultText(r.modelResult)).toContain(`Your plan has been saved to: ${file}`);
    expect(resultText(r.modelResult)).toContain('1. rename the helper');
  });

  it('the approval goes on in the mode the person chose; the prompt shows the plan from the file', async () => {
    env = createToolEnv();
    const file = sessionPlanFile(env.ctx);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '# Plan\n1. do it\n');
    let shown: string | undefined;
    const r = runnerIn(env, {
      tools: [exitPlanModeTool],
      mode: 'plan',
      answer: (req) => {
        shown = (req as { preview?: string }).preview;
        return { behavior: 'allow', mode: 'acceptEdits' };
      },
    });
    await run(r.env, 'ExitPlanMode', {});
    expect(shown).toContain('1. do it');
    expect(r.env.permission.mode).toBe('acceptEdits');
  });
});
