import { describe, expect, it } from 'vitest';
import { isoTime, monotonicMs } from '../../../src/base/clock.js';

describe('clock', () => {
  it('writes times as toISOString does', () => {
    for (const ms of [0, 1, 999, 86_399_999, 951_782_400_000, 1_764_460_800_123, 253_402_300_799_999, Date.now()]) {
      const d = new Date(ms);
      expect(isoTime(d)).toBe(d.toISOString());
    }
    expect(isoTime()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('measures durations that never go backwards', () => {
    const a = monotonicMs();
    const b = monotonicMs();
    expect(b).toBeGreaterThanOrEqual(a);
  });
});
