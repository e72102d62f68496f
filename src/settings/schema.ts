/**
 * One settings file checked against Claude Code's published JSON Schema (SchemaStore's
 * claude-code-settings.json, vendored in vendor/schemastore/ and made into a validator at
 * development time: scripts/settings-schema.mjs). Every key Claude Code documents is known; a value
 * of the wrong shape is reported with its JSON path; a key the schema gains needs no code here.
 *
 * The parts that carry rules and guards have readers of their own, which report their problems
 * more precisely (rules.ts, hooks.ts, guards.ts, the `env` check in validate.ts): the schema is made
 * lean there (see the script), and its findings here only add what those readers do not check.
 */
import { typeName } from './hooks.js';
import type { JsonPath } from './json-text.js';
import { cachedFindings, type SchemaFinding } from './schema-cache.js';
import { settingsSchemaLib } from './schema-lib.js';
import { DOCUMENTED_ENV, KNOWN_KEYS } from './schema/names.generated.js';
import type { SchemaError } from './schema/validator.generated.js';

export type { SchemaFinding };

/**
 * Keys the settings reference documents that the schema does not list yet. They are known (no
 * "unknown key" warning); their values are not checked.
 */
export const DOCUMENTED_OUTSIDE_SCHEMA: readonly string[] = [
  'askUserQuestionTimeout',
  'autoCompactWindow',
  'crossSessionInbound',
  'deniedModels',
  'isolatePeerMachines',
  'syncClaudeAiPlugins',
  'syncClaudeAiSkills',
  'autoConnectIde',
  'autoInstallIdeExtension',
  'bashEditDiffEnabled',
  'bashOutputMaxChars',
  'enableArtifact',
  'maxEffortLevel',
  'modelSettings',
  'processWrapper',
  'promptCacheTtl',
  'promptSuggestionEnabled',
];

/** wicket's own keys, which Claude Code ignores: known, checked by their readers. */
export const WICKET_KEYS: readonly string[] = [
  // stream-json carries a gate_trace line before each tool result (as --include-gate-traces).
  'includeGateTraces',
  // false: edits get no language server diagnostics appended (lsp/session.ts).
  'lspDiagnostics',
  // How long an edit waits for a language server's diagnostics, in milliseconds.
  'lspDiagnosticsTimeoutMs',
];

/** Shapes older Claude Code versions wrote, which wicket still reads: not reported. */
const OLDER_SHAPES: Record<string, (value: unknown) => boolean> = {
  // A single model (or a comma-separated list), before the fallback chain became a list.
  fallbackModel: (v) => typeof v === 'string',
};

/** Every top-level key Claude Code documents. */
export function knownSettingsKeys(): ReadonlySet<string> {
  return new Set([...KNOWN_KEYS, ...DOCUMENTED_OUTSIDE_SCHEMA, ...WICKET_KEYS, '$schema']);
}

/** The environment variables the schema documents under `env`. */
export function documentedEnvVars(): readonly string[] {
  return DOCUMENTED_ENV;
}

/** What the schema finds wrong in one file's data, one finding per place. */
export function schemaFindings(data: Record<string, unknown>): SchemaFinding[] {
  return cachedFindings(data, findingsOf);
}

function findingsOf(data: Record<string, unknown>): SchemaFinding[] {
  const errors = schemaErrors(data).filter((e) => !olderShape(e, data));
  if (!errors.length) return [];
  // An anyOf that fails reports each of its branches too: the anyOf alone says it.
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath);
  const kept = errors.filter((e) => !anyOfs.some((p) => e.schemaPath !== p && e.schemaPath.startsWith(`${p}/`)));
  const seen = new Set<string>();
  const out: SchemaFinding[] = [];
  for (const e of kept) {
    const path = pathOf(e);
    const finding = { path, message: describe(e, path, data), drop: e.keyword === 'type' && dropsAt(path) };
    if (seen.has(finding.message)) continue;
    seen.add(finding.message);
    out.push(finding);
  }
  return out;
}

/** Each present key's value checked by its own validator, the errors placed under the key. */
function schemaErrors(data: Record<string, unknown>): SchemaError[] {
  const { BY_KEY } = settingsSchemaLib();
  const out: SchemaError[] = [];
  for (const [key, value] of Object.entries(data)) {
    const check = Object.hasOwn(BY_KEY, key) ? BY_KEY[key] : undefined;
    if (!check || check(value)) continue;
    const at = `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    for (const e of check.errors ?? []) out.push({ ...e, instancePath: `${at}${e.instancePath}`, schemaPath: `#/properties${at}${e.schemaPath.slice(1)}` });
  }
  return out;
}

/** A wrong type is left out at the top level, and one level into `permissions`. */
function dropsAt(path: JsonPath): boolean {
  return path.length === 1 || (path.length === 2 && path[0] === 'permissions');
}

function olderShape(e: SchemaError, data: Record<string, unknown>): boolean {
  const [key, ...rest] = pathOf(e);
  const accepts = typeof key === 'string' ? OLDER_SHAPES[key] : undefined;
  return accepts !== undefined && rest.length === 0 && accepts(data[key as string]);
}

function pathOf(e: SchemaError): JsonPath {
  return e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/** `sandbox.network.allowedDomains[0]`. */
export function pathText(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function describe(e: SchemaError, path: JsonPath, data: unknown): string {
  const at = path.length === 1 ? `"${String(path[0])}"` : pathText(path) || 'the file';
  const value = valueAt(data, path);
  const found = `found ${shown(value)}`;
  const p = e.params;
  switch (e.keyword) {
    case 'type':
      return `${at} must be ${article(String([p.type].flat().join(' or ')))}, ${found}`;
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}, ${found}`;
    case 'const':
      return `${at} must be ${JSON.stringify(p.allowedValue)}, ${found}`;
    case 'required':
      return `${at} needs "${String(p.missingProperty)}"`;
    case 'additionalProperties':
      return `${pathText([...path, String(p.additionalProperty)])} is not a known ${pathText(path)} key`;
    case 'anyOf':
      return `${at} does not have any of the forms Claude Code accepts, ${found}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${at} must be ${LIMITS[e.keyword]} ${String(p.limit)}, ${found}`;
    case 'minLength':
      return `${at} must not be empty`;
    case 'minItems':
    case 'maxItems':
      return `${at} must have ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(p.limit)} entr${p.limit === 1 ? 'y' : 'ies'}`;
    case 'pattern':
      return `${at} must match ${String(p.pattern)}, ${found}`;
    case 'uniqueItems':
      return `${at} has the same entry twice ([${String(p.j)}] and [${String(p.i)}])`;
    default:
      return `${at}: ${e.message ?? `fails the schema's "${e.keyword}" check`}`;
  }
}

const LIMITS: Record<string, string> = { minimum: 'at least', maximum: 'at most', exclusiveMinimum: 'more than', exclusiveMaximum: 'less than' };

function valueAt(data: unknown, path: JsonPath): unknown {
  let cur = data;
  for (const k of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[k] : undefined;
  return cur;
}

function shown(value: unknown): string {
  if (value === null || typeof value === 'object') return typeName(value);
  const json = JSON.stringify(value);
  return json.length <= 40 ? `${typeName(value)} (${json})` : typeName(value);
}

function article(types: string): string {
  return types
    .split(' or ')
    .map((t) => (t === 'array' ? 'a list' : t === 'object' || t === 'integer' ? `an ${t}` : `a ${t}`))
    .join(' or ');
}
