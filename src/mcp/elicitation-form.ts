/**
 * The form an MCP server's `elicitation/create` asks for (form mode): a flat JSON schema of primitive
 * fields (string, number, integer, boolean, a single choice from an enum, several choices from an
 * array of enum strings). Turned into fields with a starting value each (the schema's default), and
 * checked field by field before an answer goes back; every problem is said in words the person can act on.
 */

/** One value of an answer, as the protocol allows it. */
export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'multi';

export interface FormField {
  name: string;
  /** The schema's title, else the property name. */
  label: string;
  description?: string;
  required: boolean;
  kind: FieldKind;
  /** choice and multi: the values and how they are shown. */
  options: Array<{ value: string; label: string }>;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: ElicitValue;
}

/** What the person has entered: text for string and number fields, a flag, a choice's value, chosen values. */
export type FieldInput = string | boolean | string[];

/** The fields of a requested schema; a property the client cannot show is left out and named in `skipped`. */
export function formFields(schema: unknown): { fields: FormField[]; skipped: string[] } {
  const s = isObject(schema) ? schema : {};
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: FormField[] = [];
  const skipped: string[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const field = isObject(raw) ? toField(name, raw, required.has(name)) : undefined;
    if (field) fields.push(field);
    else skipped.push(name);
  }
  return { fields, skipped };
}

function toField(name: string, p: Record<string, unknown>, required: boolean): FormField | undefined {
  const kind = kindOf(p);
  if (!kind) return undefined;
  const field: FormField = { name, label: str(p.title) ?? name, required, kind, options: optionsOf(p) };
  const description = str(p.description);
  if (description) field.description = description;
  if (p.format === 'email' || p.format === 'uri' || p.format === 'date' || p.format === 'date-time') field.format = p.format;
  for (const k of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'] as const) {
    if (typeof p[k] === 'number' && Number.isFinite(p[k])) field[k] = p[k];
  }
  const d = defaultOf(kind, p.default, field.options);
  if (d !== undefined) field.default = d;
  return field;
}

function kindOf(p: Record<string, unknown>): FieldKind | undefined {
  if (p.type === 'boolean') return 'boolean';
  if (p.type === 'number' || p.type === 'integer') return p.type;
  if (p.type === 'string') return Array.isArray(p.enum) || Array.isArray(p.oneOf) ? 'choice' : 'string';
  if (p.type === 'array' && isObject(p.items) && (Array.isArray(p.items.enum) || Array.isArray(p.items.anyOf))) return 'multi';
  return undefined;
}

/** enum (with the legacy enumNames as labels), oneOf / items.anyOf of `{const, title}`, or items.enum. */
function optionsOf(p: Record<string, unknown>): FormField['options'] {
  const src = p.type === 'array' && isObject(p.items) ? p.items : p;
  if (Array.isArray(src.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return src.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: str(names[i]) ?? v }));
  }
  const list = Array.isArray(src.oneOf) ? src.oneOf : Array.isArray(src.anyOf) ? src.anyOf : [];
  return list.flatMap((o) => (isObject(o) && typeof o.const === 'string' ? [{ value: o.const, label: str(o.title) ?? o.const }] : []));
}

function defaultOf(kind: FieldKind, d: unknown, options: FormField['options']): ElicitValue | undefined {
  if (kind === 'boolean') return typeof d === 'boolean' ? d : undefined;
  if (kind === 'number' || kind === 'integer') return typeof d === 'number' && Number.isFinite(d) ? d : undefined;
  if (kind === 'multi') return Array.isArray(d) ? d.filter((v): v is string => typeof v === 'string' && options.some((o) => o.value === v)) : undefined;
  if (kind === 'choice') return typeof d === 'string' && options.some((o) => o.value === d) ? d : undefined;
  return typeof d === 'string' ? d : undefined;
}

/** Each field's starting input: its default, else empty (a boolean: false; a choice: none yet). */
export function initialInputs(fields: readonly FormField[]): Record<string, FieldInput> {
  const out: Record<string, FieldInput> = {};
  for (const f of fields) {
    const d = f.default;
    if (f.kind === 'boolean') out[f.name] = d === true;
    else if (f.kind === 'multi') out[f.name] = Array.isArray(d) ? [...d] : [];
    else out[f.name] = d === undefined ? '' : String(d);
  }
  return out;
}

/** The field's value from its input; undefined when left empty; an error when it does not fit. */
export function fieldValue(f: FormField, input: FieldInput | undefined): { value?: ElicitValue; error?: string } {
  if (f.kind === 'boolean') return { value: input === true };
  if (f.kind === 'multi') return multiValue(f, Array.isArray(input) ? input : []);
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') return f.required ? { error: `${f.label} is required` } : {};
  if (f.kind === 'choice')
    return f.options.some((o) => o.value === text) ? { value: text } : { error: `${f.label} must be one of ${f.options.map((o) => o.label).join(', ')}` };
  if (f.kind === 'number' || f.kind === 'integer') return numberValue(f, text);
  return stringValue(f, typeof input === 'string' ? input : '');
}

function multiValue(f: FormField, chosen: string[]): { value?: ElicitValue; error?: string } {
  if (!chosen.length && f.required && f.minItems !== 0) return { error: `${f.label}: choose at least one` };
  if (f.minItems !== undefined && chosen.length < f.minItems) return { error: `${f.label}: choose at least ${f.minItems}` };
  if (f.maxItems !== undefined && chosen.length > f.maxItems) return { error: `${f.label}: choose at most ${f.maxItems}` };
  return chosen.length || f.required ? { value: f.options.map((o) => o.value).filter((v) => chosen.includes(v)) } : {};
}

function numberValue(f: FormField, text: string): { value?: ElicitValue; error?: string } {
  const n = Number(text);
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(n)) return { error: `${f.label} must be a number` };
  if (f.kind === 'integer' && !Number.isInteger(n)) return { error: `${f.label} must be a whole number` };
  if (f.minimum !== undefined && n < f.minimum) return { error: `${f.label} must be at least ${f.minimum}` };
  if (f.maximum !== undefined && n > f.maximum) return { error: `${f.label} must be at most ${f.maximum}` };
  return { value: n };
}

const FORMATS: Record<NonNullable<FormField['format']>, { test: (s: string) => boolean; says: string }> = {
  email: { test: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), says: 'an email address (name@example.com)' },
  uri: { test: (s) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s), says: 'a URI (https://…)' },
  date: { test: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)), says: 'a date (YYYY-MM-DD)' },
  'date-time': { test: (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), says: 'a date and time (YYYY-MM-DDTHH:MM:SSZ)' },
};

function stringValue(f: FormField, text: string): { value?: ElicitValue; error?: string } {
  const chars = [...text].length;
  if (f.minLength !== undefined && chars < f.minLength) return { error: `${f.label} needs at least ${f.minLength} character${f.minLength === 1 ? '' : 's'}` };
  if (f.maxLength !== undefined && chars > f.maxLength) return { error: `${f.label} takes at most ${f.maxLength} character${f.maxLength === 1 ? '' : 's'}` };
  const format = f.format && FORMATS[f.format];
  if (format && !format.test(text.trim())) return { error: `${f.label} must be ${format.says}` };
  return { value: text };
}

/** The answer's content, or the problems by field name (nothing is sent while one remains). */
export function collectContent(
  fields: readonly FormField[],
  inputs: Record<string, FieldInput>,
): { content: ElicitContent } | { errors: Record<string, string> } {
  const content: ElicitContent = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const r = fieldValue(f, inputs[f.name]);
    if (r.error) errors[f.name] = r.error;
    else if (r.value !== undefined) content[f.name] = r.value;
  }
  return Object.keys(errors).length ? { errors } : { content };
}

/** Only what the protocol can carry: strings, finite numbers, booleans and lists of strings. */
export function cleanContent(raw: unknown): ElicitContent | undefined {
  if (!isObject(raw)) return undefined;
  const out: ElicitContent = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v as string[];
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
