/**
 * A tool's input checked against a JSON Schema (an MCP tool's, StructuredOutput's) with ajv, which
 * the caller hands in (it comes with the MCP SDK's bundle: mcp/sdk-lib.ts), with every problem
 * listed in the words the built-in tools use: `path: expected string, got number`,
 * `query is required`, `unexpected field bogus`.
 */
import type { ErrorObject } from 'ajv';

/** The problems with one input; empty when it fits the schema. */
export type InputValidator = (input: unknown) => string[];

export type AjvClass = typeof import('ajv').Ajv;

/** A tool's schema as the API needs it at the top: an object, without `$schema`. */
export function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  const { $schema: _drop, ...rest } = schema;
  return rest.type === 'object' ? rest : { ...rest, type: 'object' };
}

/** Undefined when the schema cannot be compiled: the server then judges the input alone. */
export function inputValidator(Ajv: AjvClass, schema: Record<string, unknown>): InputValidator | undefined {
  let check: ReturnType<InstanceType<AjvClass>['compile']>;
  try {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false, logger: false });
    check = ajv.compile(schema);
  } catch {
    return undefined;
  }
  return (input) => (check(input) ? [] : [...new Set((check.errors ?? []).map((e) => describe(e, input)))]);
}

function describe(e: ErrorObject, input: unknown): string {
  const at = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = at.join('.');
  const child = (key: unknown) => (where ? `${where}.${String(key)}` : String(key));
  switch (e.keyword) {
    case 'required':
      return `${child(e.params.missingProperty)} is required`;
    case 'additionalProperties':
      return `unexpected field ${child(e.params.additionalProperty)}`;
    case 'type':
      return `${where || 'input'}: expected ${[e.params.type].flat().join(' or ')}, got ${typeName(valueAt(input, at))}`;
    case 'enum':
      return `${where || 'input'}: must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where || 'input'}: ${e.message ?? 'is not valid'}`;
  }
}

function valueAt(input: unknown, at: string[]): unknown {
  let cur = input;
  for (const k of at) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && Number.isInteger(v)) return 'integer';
  return typeof v;
}
