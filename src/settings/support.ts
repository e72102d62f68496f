/**
 * No knob that silently does nothing: every settings key and environment variable Claude Code
 * documents is either read by wicket, or named in one warning when a session loads it, or
 * meaningful only with Anthropic's own services (support-kinds.ts). The tables are
 * support-settings.ts and support-env.ts; docs/settings-support.md is `supportTable()`.
 */
import { DOCUMENTED_ENV_OUTSIDE_SCHEMA, envSupport, isGenericVariable } from './support-env.js';
import { type Support, warns } from './support-kinds.js';
import { NESTED_NOT_SUPPORTED, SETTINGS_SUPPORT } from './support-settings.js';
import { DOCUMENTED_OUTSIDE_SCHEMA, documentedEnvVars, knownSettingsKeys } from './schema.js';

export type { Support } from './support-kinds.js';

export function settingSupport(key: string): Support {
  return SETTINGS_SUPPORT[key] ?? { status: 'not supported', what: 'not read by wicket' };
}

/** Every settings key Claude Code documents, sorted. */
export function documentedSettings(): string[] {
  return [...new Set([...knownSettingsKeys(), ...DOCUMENTED_OUTSIDE_SCHEMA])].filter((k) => k !== '$schema').sort();
}

/** Every environment variable Claude Code documents, sorted. */
export function documentedVariables(): string[] {
  return [...new Set([...documentedEnvVars(), ...DOCUMENTED_ENV_OUTSIDE_SCHEMA])].sort();
}

/**
 * One warning per key or variable that is set and that wicket does not honour: settings keys of the
 * merged settings (and the sub-keys wicket leaves unread), variables of settings `env`, and Claude
 * Code's own variables from the environment wicket was started in (generic ones such as AWS_REGION
 * only when a settings file sets them).
 */
export function supportWarnings(merged: Record<string, unknown>, shellEnv: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  // The documented names come from the settings schema's bundle: read only when a value would warn.
  let documented: Set<string> | undefined;
  let documentedEnv: Set<string> | undefined;
  for (const [key, value] of Object.entries(merged)) {
    const s = settingSupport(key);
    if (!warns(s, value)) continue;
    documented ??= new Set(documentedSettings());
    if (documented.has(key)) out.push(`settings key "${key}"${valueNote(s, value)} is not supported by wicket (${s.what}); it has no effect`);
  }
  for (const [dotted, what] of Object.entries(NESTED_NOT_SUPPORTED)) {
    if (valueAt(merged, dotted.split('.')) !== undefined) out.push(`settings key "${dotted}" is not supported by wicket (${what}); it has no effect`);
  }
  const settingsEnv = isRecord(merged.env) ? merged.env : {};
  const named = new Set<string>();
  const check = (name: string, value: unknown, fromSettings: boolean) => {
    if (named.has(name) || value === undefined || value === '') return;
    if (!fromSettings && isGenericVariable(name)) return;
    const s = envSupport(name);
    if (!warns(s, value)) return;
    documentedEnv ??= new Set(documentedVariables());
    if (!documentedEnv.has(name)) return;
    named.add(name);
    out.push(`environment variable ${name}${fromSettings ? ' (settings env)' : ''} is not supported by wicket (${s.what}); it has no effect`);
  };
  for (const [name, value] of Object.entries(settingsEnv)) check(name, value, true);
  for (const [name, value] of Object.entries(shellEnv)) check(name, value, false);
  return out;
}

function valueNote(s: Support, value: unknown): string {
  return s.status === 'supported' ? ` set to ${JSON.stringify(value)}` : '';
}

function valueAt(data: unknown, path: string[]): unknown {
  let cur = data;
  for (const k of path) cur = isRecord(cur) ? cur[k] : undefined;
  return cur;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const STATUS_WORDS: Record<Support['status'], string> = {
  supported: 'supported',
  'not supported': 'not supported (warns)',
  'not yet': 'not yet (warns)',
  'Anthropic only': 'Anthropic only',
};

/** docs/settings-support.md. */
export function supportTable(): string {
  const row = (name: string, s: Support) => `| \`${name}\` | ${STATUS_WORDS[s.status]} | ${s.what.replace(/\|/g, '\\|')} |`;
  const count = (list: Support[]) => list.filter((s) => s.status === 'supported').length;
  const settings = documentedSettings().map((k) => [k, settingSupport(k)] as const);
  const variables = documentedVariables().map((v) => [v, envSupport(v)] as const);
  return [
    '# Claude Code settings and environment variables in wicket',
    '',
    'Every settings key and environment variable Claude Code documents (its published settings schema, vendored in',
    '`vendor/schemastore/`, and its settings and environment-variable references), and what wicket does with each.',
    'This file is made from the code (`src/settings/support-settings.ts`, `src/settings/support-env.ts`) by',
    '`npx tsx scripts/settings-support.ts`, and a test fails when the two differ.',
    '',
    '- **supported**: wicket does what the key says (for a few, only some values: the others warn).',
    '- **not supported (warns)** / **not yet (warns)**: a session that loads it prints one warning naming it.',
    "- **Anthropic only**: meaningful only with Anthropic's own services or Claude Code's own apps; ignored quietly.",
    '',
    `## Settings keys (${settings.length}; ${count(settings.map(([, s]) => s))} supported)`,
    '',
    '| key | in wicket | what wicket does |',
    '| --- | --- | --- |',
    ...settings.map(([k, s]) => row(k, s)),
    ...Object.entries(NESTED_NOT_SUPPORTED).map(([k, what]) => row(k, { status: 'not supported', what })),
    '',
    `## Environment variables (${variables.length}; ${count(variables.map(([, s]) => s))} supported)`,
    '',
    'Set in the environment or in a settings file’s `env`. Generic variables (AWS_REGION, OTEL_*, proxies…) warn only when a settings file sets them.',
    '',
    '| variable | in wicket | what wicket does |',
    '| --- | --- | --- |',
    ...variables.map(([v, s]) => row(v, s)),
    '',
  ].join('\n');
}
