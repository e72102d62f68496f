/** The plan file of a session: its three-word name, the default folder, and plansDirectory inside the project only. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFilePath, plansDirectory, planSlug } from '../../../src/settings/plan-file.js';

const where = { sessionId: 'sess-1', projectRoot: '/work/proj', homeDir: '/home/me', env: {}, settings: {} };

describe('the plan file', () => {
  it('is named by three words from the session id: the same session, the same file', () => {
    expect(planSlug('sess-1')).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    expect(planSlug('sess-1')).toBe(planSlug('sess-1'));
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f'].map(planSlug)).size).toBeGreaterThan(1);
  });

  it('lives in ~/.claude/plans by default, or CLAUDE_CONFIG_DIR/plans', () => {
    expect(planFilePath(where)).toBe(`/home/me/.claude/plans/${planSlug('sess-1')}.md`);
    expect(planFilePath({ ...where, env: { CLAUDE_CONFIG_DIR: '/cfg' } })).toBe(`/cfg/plans/${planSlug('sess-1')}.md`);
  });

  it('plansDirectory is relative to the project; one that leads out of it is not used, and says why', () => {
    expect(planFilePath({ ...where, settings: { plansDirectory: 'docs/plans' } })).toBe(`/work/proj/docs/plans/${planSlug('sess-1')}.md`);
    for (const bad of ['../elsewhere', '/etc', 'a\\b', '']) {
      const r = plansDirectory({ ...where, settings: { plansDirectory: bad } });
      expect(r.dir).toBe(path.join('/home/me/.claude', 'plans'));
      expect(r.problem).toBeTruthy();
    }
  });
});
