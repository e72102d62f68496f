import { describe, expect, it } from 'vitest';
import { decidePermission } from '../../../src/permissions/decide.js';
import { emptyRules } from '../../../src/base/permission-types.js';
import { exitPlanModeTool } from '../../../src/tools/exit-plan-mode/index.js';
import { BUILTIN_TOOLS, findTool } from '../../../src/tools/registry.js';
import { createToolEnv, resultText, tryRunTool } from '../../support/tool-context.js';

describe('ExitPlanMode', () => {
  it('is registered as a built-in tool', () => {
    expect(findTool(BUILTIN_TOOLS, 'ExitPlanMode')).toBe(exitPlanModeTool);
  });

  it('rejects nonsense input before anything runs', async () => {
    const env = createToolEnv({ permissionMode: 'plan' });
    try {
      for (const bad of [{ plan: '' }, { plan: 3 }, { plan: 'x', extra: 1 }]) {
        const r = await tryRunTool(exitPlanModeTool, bad, env.ctx);
        expect(r.ok ? 'ran' : r.stage).toBe('parse');
      }
    } finally {
      env.cleanup();
    }
  });

  it('refuses outside plan mode, with a reason the model can act on', async () => {
    const env = createToolEnv({ permissionMode: 'default' });
    try {
      const r = await tryRunTool(exitPlanModeTool, { plan: '1. edit a.ts' }, env.ctx);
      expect(r).toMatchObject({ ok: false, stage: 'validate' });
      expect(r.ok ? '' : r.message).toContain('plan mode is not on');
    } finally {
      env.cleanup();
    }
  });

  it('asks the person in plan mode (plan mode does not refuse it)', async () => {
    const env = createToolEnv({ permissionMode: 'plan' });
    try {
      const decision = await decidePermission({ tool: exitPlanModeTool, input: { plan: 'x' }, ctx: env.ctx, rules: emptyRules(), mode: 'plan' });
      expect(decision).toMatchObject({ behavior: 'ask', by: 'tool default' });
      expect(exitPlanModeTool.isReadOnly({ plan: 'x' })).toBe(true);
      expect(exitPlanModeTool.isConcurrencySafe({ plan: 'x' })).toBe(false);
    } finally {
      env.cleanup();
    }
  });

  it('once approved, returns the plan and marks the approval for the loop', async () => {
    const env = createToolEnv({ permissionMode: 'plan' });
    try {
      const plan = '## Plan\n1. Add a test\n2. Fix the bug';
      const r = await tryRunTool(exitPlanModeTool, { plan }, env.ctx);
      if (!r.ok) throw new Error(r.message);
      expect(r.output).toMatchObject({ approved: true, plan });
      const output = r.output as { approved: true; plan: string };
      expect(exitPlanModeTool.modeAfter?.(output, 'plan', undefined)).toBe('default');
      expect(exitPlanModeTool.modeAfter?.(output, 'plan', 'acceptEdits')).toBe('acceptEdits');
      expect(exitPlanModeTool.modeAfter?.(output, 'default', undefined)).toBeUndefined();
      expect(resultText(r.modelResult)).toContain('approved your plan');
      expect(resultText(r.modelResult)).toContain('2. Fix the bug');
      expect(exitPlanModeTool.summary({ plan })).toBe('Plan: ## Plan');
    } finally {
      env.cleanup();
    }
  });
});
