import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { inputValidator, type InputValidator } from '../../../src/base/schema-check.js';

const compile = (schema: Record<string, unknown>): InputValidator => {
  const v = inputValidator(Ajv, schema);
  if (!v) throw new Error('schema did not compile');
  return v;
};

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'number' },
    count: { type: 'integer' },
    mode: { enum: ['fast', 'slow', 1] },
    outer: {
      type: 'object',
      properties: { inner: { type: 'string' }, deep: { type: 'object', properties: { flag: { type: 'boolean' } } } },
      required: ['inner'],
      additionalProperties: false,
    },
    tags: { type: 'array', items: { type: 'string' } },
    either: { type: ['string', 'null'] },
  },
  required: ['query'],
  additionalProperties: false,
};

describe('inputValidator', () => {
  const check = compile(schema);

  it('an input that fits has no problems', () => {
    expect(check({ query: 'q' })).toEqual([]);
    expect(check({ query: 'q', limit: 2.5, count: 3, mode: 'fast', outer: { inner: 'i', deep: { flag: true } }, tags: ['a'], either: null })).toEqual([]);
  });

  it('a missing required field', () => {
    expect(check({})).toEqual(['query is required']);
  });

  it('an unexpected field', () => {
    expect(check({ query: 'q', bogus: 1 })).toEqual(['unexpected field bogus']);
  });

  it('a wrong type names the field, the expected type and the actual one', () => {
    expect(check({ query: 'q', limit: 'ten' })).toEqual(['limit: expected number, got string']);
    expect(check({ query: 5 })).toEqual(['query: expected string, got integer']);
    expect(check({ query: 'q', count: 1.5 })).toEqual(['count: expected integer, got number']);
    expect(check({ query: 'q', tags: 'a' })).toEqual(['tags: expected array, got string']);
    expect(check({ query: 'q', limit: null })).toEqual(['limit: expected number, got null']);
    expect(check({ query: 'q', outer: [] })).toEqual(['outer: expected object, got array']);
  });

  it('a union type lists every allowed type', () => {
    expect(check({ query: 'q', either: 3 })).toEqual(['either: expected string or null, got integer']);
  });

  it('nested paths are joined with dots', () => {
    expect(check({ query: 'q', outer: { inner: 1 } })).toEqual(['outer.inner: expected string, got integer']);
    expect(check({ query: 'q', outer: { inner: 'i', deep: { flag: 'yes' } } })).toEqual(['outer.deep.flag: expected boolean, got string']);
    expect(check({ query: 'q', outer: {} })).toEqual(['outer.inner is required']);
    expect(check({ query: 'q', outer: { inner: 'i', extra: 0 } })).toEqual(['unexpected field outer.extra']);
    expect(check({ query: 'q', tags: ['a', 2] })).toEqual(['tags.1: expected string, got integer']);
  });

  it('an enum lists the allowed values', () => {
    expect(check({ query: 'q', mode: 'medium' })).toEqual(['mode: must be one of "fast", "slow", 1']);
  });

  it('lists several problems at once', () => {
    const problems = check({ limit: 'x', bogus: true, outer: { inner: false }, mode: 'no' });
    expect(problems).toHaveLength(5);
    expect(problems).toEqual(
      expect.arrayContaining([
        'query is required',
        'unexpected field bogus',
        'limit: expected number, got string',
        'outer.inner: expected string, got boolean',
        'mode: must be one of "fast", "slow", 1',
      ]),
    );
  });

  it('a top-level type problem is named "input"', () => {
    expect(check('text')).toEqual(['input: expected object, got string']);
    expect(check(null)).toEqual(['input: expected object, got null']);
  });

  it('other keywords use the ajv message with the path', () => {
    const v = compile({ type: 'object', properties: { n: { type: 'number', minimum: 3 }, s: { type: 'string', minLength: 2 } } });
    expect(v({ n: 1, s: 'a' })).toEqual(['n: must be >= 3', 's: must NOT have fewer than 2 characters']);
  });

  it('a field name with a slash or a tilde is shown as written', () => {
    const v = compile({ type: 'object', properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' } } });
    expect(v({ 'a/b': 1, 'c~d': 2 })).toEqual(['a/b: expected string, got integer', 'c~d: expected string, got integer']);
  });

  it('formats are not checked', () => {
    const v = compile({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } });
    expect(v({ when: 'not a date' })).toEqual([]);
  });

  it('a schema that cannot be compiled gives undefined', () => {
    expect(inputValidator(Ajv, { type: 'not-a-type' })).toBeUndefined();
    expect(inputValidator(Ajv, { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } })).toBeUndefined();
  });
});
