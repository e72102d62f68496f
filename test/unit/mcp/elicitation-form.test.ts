import { describe, expect, it } from 'vitest';
import { cleanContent, collectContent, fieldValue, formFields, initialInputs, type FormField } from '../../../src/mcp/elicitation-form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full name', minLength: 2, maxLength: 5 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', default: 0.5 },
    ok: { type: 'boolean', default: true },
    color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'], default: 'g' },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'A' },
          { const: 'b', title: 'B' },
        ],
      },
      minItems: 1,
      default: ['b', 'zz'],
    },
    nested: { type: 'object', properties: {} },
  },
  required: ['name', 'size'],
};

const field = (name: string): FormField => formFields(schema).fields.find((f) => f.name === name)!;

describe('the form of a requested schema', () => {
  it('turns each primitive property into a field, in order, and names the ones it cannot show', () => {
    const { fields, skipped } = formFields(schema);
    expect(fields.map((f) => `${f.name}:${f.kind}${f.required ? '*' : ''}`)).toEqual([
      'name:string*',
      'email:string',
      'age:integer',
      'ratio:number',
      'ok:boolean',
      'color:choice',
      'size:choice*',
      'tags:multi',
    ]);
    expect(skipped).toEqual(['nested']);
    expect(field('name')).toMatchObject({ label: 'Name', description: 'Your full name', minLength: 2, maxLength: 5 });
    expect(field('color').options).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    expect(field('size').options).toEqual([
      { value: 's', label: 'Small' },
      { value: 'l', label: 'Large' },
    ]);
    expect(field('tags').default).toEqual(['b']);
  });

  it('starts from the defaults', () => {
    expect(initialInputs(formFields(schema).fields)).toEqual({ name: '', email: '', age: '', ratio: '0.5', ok: true, color: 'g', size: '', tags: ['b'] });
  });

  it('never throws on a bad schema', () => {
    expect(formFields(undefined)).toEqual({ fields: [], skipped: [] });
    expect(formFields({ properties: { x: 3, y: { type: 'string' } } }).fields.map((f) => f.name)).toEqual(['y']);
  });

  it('checks each field with a message that says what to do', () => {
    expect(fieldValue(field('name'), '  ')).toEqual({ error: 'Name is required' });
    expect(fieldValue(field('name'), 'A')).toEqual({ error: 'Name needs at least 2 characters' });
    expect(fieldValue(field('name'), 'Adelaide')).toEqual({ error: 'Name takes at most 5 characters' });
    expect(fieldValue(field('name'), 'Ada')).toEqual({ value: 'Ada' });
    expect(fieldValue(field('email'), 'nope')).toEqual({ error: 'email must be an email address (name@example.com)' });
    expect(fieldValue(field('email'), '')).toEqual({});
    expect(fieldValue(field('age'), 'ten')).toEqual({ error: 'age must be a number' });
    expect(fieldValue(field('age'), '1.5')).toEqual({ error: 'age must be a whole number' });
    expect(fieldValue(field('age'), '200')).toEqual({ error: 'age must be at most 150' });
    expect(fieldValue(field('age'), '-1')).toEqual({ error: 'age must be at least 0' });
    expect(fieldValue(field('ratio'), '2e-1')).toEqual({ value: 0.2 });
    expect(fieldValue(field('ok'), false)).toEqual({ value: false });
    expect(fieldValue(field('size'), '')).toEqual({ error: 'size is required' });
    expect(fieldValue(field('size'), 'm')).toEqual({ error: 'size must be one of Small, Large' });
    expect(fieldValue(field('tags'), [])).toEqual({ error: 'tags: choose at least 1' });
    expect(fieldValue(field('tags'), ['b', 'a'])).toEqual({ value: ['a', 'b'] });
  });

  it('collects the content, or every problem', () => {
    const fields = formFields(schema).fields;
    const inputs = { ...initialInputs(fields), name: 'Ada', size: 'l', age: '36' };
    expect(collectContent(fields, inputs)).toEqual({ content: { name: 'Ada', age: 36, ratio: 0.5, ok: true, color: 'g', size: 'l', tags: ['b'] } });
    expect(collectContent(fields, { ...inputs, name: '', age: 'x' })).toEqual({ errors: { name: 'Name is required', age: 'age must be a number' } });
  });

  it('keeps only what the protocol can carry in an answer', () => {
    expect(cleanContent({ a: 'x', b: 2, c: true, d: ['y'], e: { f: 1 }, g: [1], h: null, i: Infinity })).toEqual({ a: 'x', b: 2, c: true, d: ['y'] });
    expect(cleanContent('nope')).toBeUndefined();
  });
});
