/**
 * Inputs made from a tool's own JSON Schema: one that fits it (`minimalInput`), and the nonsense
 * `tools check` sends to see that the gates refuse it (`nonsenseInputs`): not an object, a required
 * field missing, a wrong type, null, a value outside an enum, an extra key where the schema is
 * closed, nested junk, a string shorter or longer than allowed. The odd inputs the schema itself
 * accepts (an empty string, a huge one, a null byte) are made too, marked `mustRefuse: false`: the
 * gates must handle them without breaking, and the tool's own validation may refuse them.
 */

export type JsonSchema = Record<string, unknown>;

export interface NonsenseCase {
  /** What is wrong with it, in a few words (`file_path: a number instead of a string`). */
  label: string;
  input: unknown;
  /** The schema rejects it: parse or validate must refuse it. */
  mustRefuse: boolean;
}

/** Characters of the huge strings. */
export const HUGE = 64 * 1024;

const NESTED_JUNK = { a: [{ b: [null, { c: [[[]]] }] }] };

function props(schema: JsonSchema): Record<string, JsonSchema> {
  const p = schema.properties;
  return p && typeof p === 'object' ? (p as Record<string, JsonSchema>) : {};
}

function required(schema: JsonSchema): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
}

/** The types a property allows, or undefined when the schema does not say in one `type`. */
function types(p: JsonSchema): string[] | undefined {
  if (typeof p.type === 'string') return [p.type];
  if (Array.isArray(p.type)) return p.type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/** A value of the property's type that fits its constraints, or undefined when none can be made. */
export function sampleValue(p: JsonSchema): unknown {
  if (Array.isArray(p.enum) && p.enum.length) return p.enum[0];
  if ('const' in p) return p.const;
  if ('default' in p) return p.default;
  const branch = [p.anyOf, p.oneOf].find(Array.isArray) as JsonSchema[] | undefined;
  if (branch?.length) return sampleValue(branch[0]!);
  switch (types(p)?.[0]) {
    case 'string':
      return 'x'.repeat(Math.max(1, Number(p.minLength ?? 1)));
    case 'integer':
    case 'number':
      return typeof p.minimum === 'number' ? Math.max(p.minimum, 1) : 1;
    case 'boolean':
      return false;
    case 'array': {
      const n = Number(p.minItems ?? 0);
      const item = p.items && typeof p.items === 'object' ? sampleValue(p.items as JsonSchema) : 'x';
      return Array.from({ length: n }, () => item);
    }
    case 'object':
      return minimalInput(p);
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** An input with every required field and nothing else. */
export function minimalInput(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const p = props(schema);
  for (const key of required(schema)) {
    const v = p[key] ? sampleValue(p[key]) : 'x';
    out[key] = v === undefined ? 'x' : v;
  }
  return out;
}

/** A value of another type than every one `allowed`. */
function wrongTypeValue(allowed: string[]): { value: unknown; what: string } {
  if (!allowed.includes('string')) return { value: 'not-a-value', what: 'a string' };
  if (!allowed.includes('number') && !allowed.includes('integer')) return { value: 12345, what: 'a number' };
  if (!allowed.includes('boolean')) return { value: true, what: 'a boolean' };
  return { value: [], what: 'an array' };
}

function with_(sample: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  return { ...sample, [key]: value };
}

/** The nonsense for one property of the sample. */
function propertyCases(sample: Record<string, unknown>, key: string, p: JsonSchema): NonsenseCase[] {
  const out: NonsenseCase[] = [];
  const t = types(p);
  if (t) {
    const wrong = wrongTypeValue(t);
    out.push({ label: `${key}: ${wrong.what} instead of ${t.join(' or ')}`, input: with_(sample, key, wrong.value), mustRefuse: true });
    if (!t.includes('null')) out.push({ label: `${key}: null`, input: with_(sample, key, null), mustRefuse: true });
    if (!t.includes('object') && !t.includes('array')) out.push({ label: `${key}: nested junk`, input: with_(sample, key, NESTED_JUNK), mustRefuse: true });
    if (t.includes('integer') && !t.includes('number')) out.push({ label: `${key}: a fraction`, input: with_(sample, key, 1.5), mustRefuse: true });
  }
  if (Array.isArray(p.enum) && p.enum.length && p.enum.every((v) => typeof v === 'string'))
    out.push({ label: `${key}: not one of its choices`, input: with_(sample, key, 'not-a-choice'), mustRefuse: true });
  if (t?.length === 1 && t[0] === 'string' && !p.enum && !('const' in p)) out.push(...stringCases(sample, key, p));
  return out;
}

function stringCases(sample: Record<string, unknown>, key: string, p: JsonSchema): NonsenseCase[] {
  const min = typeof p.minLength === 'number' ? p.minLength : 0;
  const max = typeof p.maxLength === 'number' ? p.maxLength : undefined;
  const huge = 'x'.repeat(max !== undefined ? Math.max(max + 1, 1) : HUGE);
  return [
    { label: `${key}: an empty string`, input: with_(sample, key, ''), mustRefuse: min > 0 },
    { label: `${key}: a huge string`, input: with_(sample, key, huge), mustRefuse: max !== undefined },
    { label: `${key}: a null byte`, input: with_(sample, key, 'a\u0000b'), mustRefuse: false },
  ];
}

/**
 * Nonsense for a tool: each case changes one thing of `sample` (an input that fits the schema; the
 * minimal one when not given), so the gate that refuses it refuses for that reason.
 */
export function nonsenseInputs(schema: JsonSchema, sample: Record<string, unknown> = minimalInput(schema)): NonsenseCase[] {
  const req = required(schema);
  const out: NonsenseCase[] = [
    { label: 'an array instead of an object', input: [], mustRefuse: true },
    { label: 'a string instead of an object', input: 'junk', mustRefuse: true },
    { label: 'a number instead of an object', input: 42, mustRefuse: true },
  ];
  // A missing input is read as {}: nonsense only when something is required.
  if (req.length) out.push({ label: 'null instead of an object', input: null, mustRefuse: true }, { label: 'an empty object', input: {}, mustRefuse: true });
  for (const key of req) {
    const { [key]: _gone, ...rest } = sample;
    out.push({ label: `${key} missing (required)`, input: rest, mustRefuse: true });
  }
  for (const [key, p] of Object.entries(props(schema))) if (p && typeof p === 'object') out.push(...propertyCases(sample, key, p));
  if (schema.additionalProperties === false) out.push({ label: 'an extra key', input: { ...sample, not_a_field: 1 }, mustRefuse: true });
  return out;
}
