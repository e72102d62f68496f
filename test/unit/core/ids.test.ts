import { describe, expect, it } from 'vitest';
import { randomHex, randomUuid } from '../../../src/base/ids.js';

describe('random ids', () => {
  it('are RFC 4122 version 4 UUIDs and do not repeat', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => randomUuid()));
    expect(ids.size).toBe(2000);
    for (const id of [...ids].slice(0, 50)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('give short random hex of the asked length, from the same pool, without repeats', () => {
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/);
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
    const many = new Set(Array.from({ length: 1000 }, () => randomHex(6)));
    expect(many.size).toBe(1000);
  });
});
