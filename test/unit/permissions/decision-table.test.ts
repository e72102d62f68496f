/**
 * The decision table: (settings files, mode, tool call) → allow / ask / deny, through the real
 * settings loader and the real permission engine, with the real file and search tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATH_CASES } from './cases-paths.js';
import { TOOL_CASES } from './cases-tools.js';
import type { DecisionCase } from './cases-types.js';
import { decide, loadWorldSettings, makeWorld, type World } from './world.js';

let world: World;
beforeAll(() => {
  world = makeWorld();
});
afterAll(() => world.cleanup());

const ALL: DecisionCase[] = [...PATH_CASES, ...TOOL_CASES];

describe('decision table', () => {
  it('has at least 200 cases with distinct names', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(200);
    expect(new Set(ALL.map((c) => c.name)).size).toBe(ALL.length);
  });

  it.each(ALL.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const loaded = loadWorldSettings(world, c.settings);
    const additionalDirs = c.settingsDirs ? loaded.additionalDirectories : c.additionalDirs;
    const decision = await decide(world, loaded, c.tool, c.input, c.mode ?? 'default', {
      ...(c.cwd ? { cwd: c.cwd } : {}),
      ...(additionalDirs ? { additionalDirs } : {}),
    });
    const detail = `${decision.behavior} by ${decision.by}${'reason' in decision ? `: ${decision.reason}` : ''}`;
    expect(decision.behavior, detail).toBe(c.expect);
    if (c.by) expect(decision.by).toContain(c.by);
  });
});
