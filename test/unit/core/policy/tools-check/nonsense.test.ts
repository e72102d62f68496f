/** The inputs `tools check` makes from a tool's JSON Schema: one that fits, and nonsense, each wrong in one way. */
import { describe, expect, it } from 'vitest';
import { HUGE, minimalInput, nonsenseInputs, sampleValue } from '../../../../../src/core/policy/tools-check/nonsense.js';
import { inputValidator } from '../../../../../src/base/schema-check.js';
import { Ajv } from 'ajv';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1 },
    mode: { type: 'string', enum: ['fast', 'slow'] },
    count: { type: 'integer', minimum: 3 },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
    deep: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
    note: { type: 'string', maxLength: 10 },
  },
  required: ['path', 'mode', 'count', 'tags', 'deep'],
  additionalProperties: false,
};
const check = inputValidator(Ajv, schema)!;

describe('minimalInput', () => {
  it('fills every required field with a value that fits, and nothing else', () => {
    const input = minimalInput(schema);
    expect(input).toEqual({ path: 'x', mode: 'fast', count: 3, tags: ['x', 'x'], deep: { on: false } });
    expect(check(input)).toEqual([]);
  });

  it('takes the first branch of anyOf, a const, a default', () => {
    expect(sampleValue({ anyOf: [{ type: 'number' }, { type: 'string' }] })).toBe(1);
    expect(sampleValue({ const: 'k' })).toBe('k');
    expect(sampleValue({ type: 'string', default: 'd' })).toBe('d');
  });
});

describe('nonsenseInputs', () => {
  const cases = nonsenseInputs(schema);
  const labels = cases.map((c) => c.label);

  it('makes each kind of nonsense the schema names', () => {
    for (const l of [
      'an array instead of an object',
      'null instead of an object',
      'an empty object',
      'path missing (required)',
      'count missing (required)',
      'path: a number instead of string',
      'count: a string instead of integer',
      'count: a fraction',
      'mode: not one of its choices',
      'tags: a string instead of array',
      'deep: null',
      'path: nested junk',
      'path: an empty string',
      'note: a huge string',
      'an extra key',
    ])
      expect(labels).toContain(l);
  });

  it('every case marked mustRefuse is refused by the schema, and every other one fits it', () => {
    for (const c of cases) {
      const problems = c.input !== null && typeof c.input === 'object' && !Array.isArray(c.input) ? check(c.input) : ['not an object'];
      if (c.mustRefuse) expect(problems, c.label).not.toEqual([]);
      else expect(problems, c.label).toEqual([]);
    }
  });

  it('a huge string is HUGE characters, or one past maxLength', () => {
    const huge = (key: string) => (cases.find((c) => c.label === `${key}: a huge string`)!.input as Record<string, string>)[key]!.length;
    expect(huge('path')).toBe(HUGE);
    expect(huge('note')).toBe(11);
  });

  it('an open schema gets no extra-key case, and no null or empty object when nothing is required', () => {
    const open = nonsenseInputs({ type: 'object', properties: { q: { type: 'string' } } });
    expect(open.map((c) => c.label)).not.toContain('an extra key');
    expect(open.map((c) => c.label)).not.toContain('null instead of an object');
  });
});
