/**
 * The settings keys that carry permission rules or other guards. A value of the wrong type here is
 * never guessed at and never dropped with a warning: dropping `"deny": "Bash(rm:*)"` (a string, not a
 * list) would let `rm` run. Each one is a problem that stops the run (load.ts), with the place and
 * the fix. Keys that only widen what is allowed (`additionalDirectories`, `enabledMcpjsonServers`)
 * and every other key stay warnings (validate.ts): leaving those out only asks more.
 *
 * The deny and ask entries themselves are checked where rules are parsed (rules.ts), the hooks of
 * the events that can refuse something where hooks are parsed (hooks/config.ts).
 */
import { typeName } from './hooks.js';
import { PERMISSION_MODES } from '../base/permission-modes.js';
import type { JsonPath } from './json-text.js';

export interface GuardProblem {
  path: JsonPath;
  message: string;
  hint?: string;
}

/** Undefined when the value is fine; else what was expected (and, when the type alone misleads, what was found). */
type Check = (value: unknown) => { expected: string; found?: string; hint?: string } | undefined;

const object: Check = (v) => (isRecord(v) ? undefined : { expected: 'an object' });
const boolean: Check = (v) =>
  typeof v === 'boolean' ? undefined : { expected: 'true or false', ...(v === 'true' || v === 'false' ? { hint: `write ${v} without quotes` } : {}) };
const text: Check = (v) => (typeof v === 'string' ? undefined : { expected: 'a string' });
const strings: Check = (v) => {
  if (!Array.isArray(v)) return { expected: 'a list of strings', ...(typeof v === 'string' ? { hint: `write it as a list: [${JSON.stringify(v)}]` } : {}) };
  const i = v.findIndex((x) => typeof x !== 'string');
  return i === -1 ? undefined : { expected: 'a list of strings', found: `${typeName(v[i])} at [${i}]` };
};
const list: Check = (v) => (Array.isArray(v) ? undefined : { expected: 'a list' });

/** A rule list: a string where a list belongs gets the list written out as the fix. */
const rules =
  (name: string): Check =>
  (v) => {
    if (Array.isArray(v)) return undefined;
    return { expected: 'a list of rule strings', ...(typeof v === 'string' ? { hint: `write it as a list: "${name}": [${JSON.stringify(v)}]` } : {}) };
  };

/** `auto` is Claude Code's; wicket warns and uses default (load.ts). `manual` is an old name for default. */
const MODES = [...PERMISSION_MODES, 'manual', 'auto'];
const mode: Check = (v) =>
  typeof v === 'string' && MODES.includes(v) ? undefined : { expected: `one of ${PERMISSION_MODES.map((m) => `"${m}"`).join(', ')}` };
const disable: Check = (v) =>
  v === 'disable' ? undefined : { expected: '"disable"', ...(v === true ? { hint: 'write "disable" (the only value Claude Code knows)' } : {}) };

type Shape = Record<string, Check | { check: Check; keys: Shape }>;

const PERMISSIONS: Shape = { allow: rules('allow'), ask: rules('ask'), deny: rules('deny'), defaultMode: mode, disableBypassPermissionsMode: disable };

const SANDBOX: Shape = {
  enabled: boolean,
  failIfUnavailable: boolean,
  allowUnsandboxedCommands: boolean,
  autoAllowBashIfSandboxed: boolean,
  excludedCommands: strings,
  bwrapPath: text,
  socatPath: text,
  filesystem: { check: object, keys: { allowWrite: strings, denyWrite: strings, denyRead: strings, allowRead: strings } },
  network: { check: object, keys: { allowedDomains: strings, deniedDomains: strings, allowUnixSockets: strings, allowAllUnixSockets: boolean } },
};

/** `permissions` as a list or a string: show where the lists go. */
const permissionsObject: Check = (v) =>
  isRecord(v) ? undefined : { expected: 'an object', hint: 'the lists go inside it: "permissions": { "allow": [ … ], "deny": [ … ] }' };

const TOP: Shape = {
  permissions: { check: permissionsObject, keys: PERMISSIONS },
  hooks: object,
  sandbox: { check: object, keys: SANDBOX },
  disableAllHooks: boolean,
  allowManagedHooksOnly: boolean,
  allowManagedPermissionRulesOnly: boolean,
  deniedMcpServers: list,
  allowedMcpServers: list,
  disabledMcpjsonServers: strings,
};

/** Wrong types among the guarding keys of one settings file, each with its JSON path. */
export function guardProblems(data: Record<string, unknown>): GuardProblem[] {
  const out: GuardProblem[] = [];
  checkShape(data, TOP, [], out);
  return out;
}

/** The keys guardProblems checks at the top level (validate.ts leaves them to it). */
export const GUARD_KEYS: readonly string[] = Object.keys(TOP);

function checkShape(data: Record<string, unknown>, shape: Shape, at: JsonPath, out: GuardProblem[]): void {
  for (const [key, spec] of Object.entries(shape)) {
    if (!(key in data)) continue;
    const value = data[key];
    const check = typeof spec === 'function' ? spec : spec.check;
    const path = [...at, key];
    const wrong = check(value);
    if (wrong) {
      out.push({
        path,
        message: `${path.join('.')} must be ${wrong.expected}, found ${wrong.found ?? shown(value)}`,
        ...(wrong.hint ? { hint: wrong.hint } : {}),
      });
      continue;
    }
    if (typeof spec !== 'function') checkShape(value as Record<string, unknown>, spec.keys, path, out);
  }
}

/** The value for a message: short ones as written, else their type. */
function shown(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const json = JSON.stringify(value);
    return json.length <= 40 ? `${typeName(value)} (${json})` : typeName(value);
  }
  return Array.isArray(value) ? 'a list' : typeName(value);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
