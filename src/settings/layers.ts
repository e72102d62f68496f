/** One settings source, read, checked and split into rules and hooks: the unit load.ts merges. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseHooksConfig } from './hooks.js';
import type { RuleSource } from '../base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../base/permission-types.js';
import { guardProblems } from './guards.js';
import type { JsonPath, TextPosition } from './json-text.js';
import type { HookGroup } from '../base/hook-config.js';
import { managedDropInDir } from './paths.js';
import type { SettingsProblem } from './problem.js';
import { readSettingsFile, type ReadResult } from './read.js';
import { collectRules } from './rules.js';
import { checkSettings, isObject } from './validate.js';

export interface Layer {
  source: RuleSource;
  label: string;
  /** The checked data (wrong-typed known keys removed); empty when the source has problems. */
  data: Record<string, unknown>;
  rules: PermissionRules;
  hooks: HookGroup[];
  warnings: string[];
  /** Why the source cannot be read as settings; none of it is used then. */
  problems: SettingsProblem[];
  /** For the list of sources; absent for command-line flags. */
  info?: { source: RuleSource; path?: string; loaded: boolean; unreadable?: boolean };
}

/** Settings files are read as JSONC, strictly about what is ambiguous (read.ts). */
export function readSettingsSource(file: string, opts: { anyKind?: boolean } = {}): ReadResult {
  return readSettingsFile(file, { settings: true, ...opts });
}

export function layerFromResult(source: RuleSource, file: string | undefined, result: ReadResult, label = file ?? source): Layer {
  const layer: Layer = {
    source,
    label,
    data: {},
    rules: emptyRules(),
    hooks: [],
    warnings: [],
    problems: [],
    info: { source, ...(file ? { path: file } : {}), loaded: result.status === 'loaded' },
  };
  const problem = (at: TextPosition, message: string, hint?: string): SettingsProblem => ({ file: label, source, ...at, message, ...(hint ? { hint } : {}) });
  if (result.status === 'error') {
    const { line, column, message, hint } = result.problem;
    return unreadable(layer, [problem({ line, column }, message, hint)]);
  }
  if (result.status !== 'loaded') return layer;
  const placed = (p: { path: JsonPath; message: string; hint?: string }) => problem(result.at(p.path), p.message, p.hint);
  const problems = guardProblems(result.data).map(placed);
  const checked = checkSettings(result.data, label);
  layer.data = checked.clean;
  layer.warnings.push(...checked.warnings);
  if (isObject(checked.clean.permissions)) {
    const collected = collectRules(checked.clean.permissions, source, file, label, { strict: true });
    layer.rules = collected.rules;
    layer.warnings.push(...collected.warnings);
    problems.push(...collected.problems.map(placed));
  }
  const hooks = parseHooksConfig(checked.clean.hooks, source, file, label, { strict: true });
  layer.hooks = hooks.groups;
  layer.warnings.push(...hooks.warnings);
  problems.push(...hooks.problems.map(placed));
  return problems.length ? unreadable(layer, problems) : layer;
}

/** Nothing of a source with problems is used; its warnings would only repeat them. */
function unreadable(layer: Layer, problems: SettingsProblem[]): Layer {
  const seen = new Set<string>();
  const once = problems.filter((p) => !seen.has(`${p.line}:${p.column}:${p.message}`) && seen.add(`${p.line}:${p.column}:${p.message}`));
  return {
    ...layer,
    data: {},
    rules: emptyRules(),
    hooks: [],
    warnings: [],
    problems: once,
    ...(layer.info ? { info: { ...layer.info, loaded: false, unreadable: true } } : {}),
  };
}

/** `--allowedTools` / `--disallowedTools`: rules from the command line, `/path` anchored at the cwd. */
export function cliRuleLayer(allowed: string[], disallowed: string[]): Layer {
  const allow = collectRules({ allow: allowed }, 'cli', undefined, '--allowedTools');
  const deny = collectRules({ deny: disallowed }, 'cli', undefined, '--disallowedTools', { strict: true });
  return {
    source: 'cli',
    label: 'command line',
    data: {},
    rules: { allow: allow.rules.allow, ask: [], deny: deny.rules.deny },
    hooks: [],
    warnings: [...allow.warnings, ...deny.warnings],
    // A --disallowedTools value that is not a rule is never left out quietly either.
    problems: deny.problems.map((p) => ({
      file: '--disallowedTools',
      source: 'cli',
      line: 1,
      column: 1,
      message: p.message.replace(/^permissions\.deny\[\d+\] /, ''),
      ...(p.hint ? { hint: p.hint } : {}),
    })),
  };
}

/**
 * The managed file, then `managed-settings.d/*.json` in name order (later files win). A drop-in
 * folder that exists but cannot be listed is a problem: its files may hold the policy.
 */
export function readManagedLayers(managedPath: string): Layer[] {
  const layers = [layerFromResult('managed', managedPath, readSettingsSource(managedPath))];
  const dir = managedDropInDir(managedPath);
  let names: string[] = [];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return layers;
    const problem = {
      line: 1,
      column: 1,
      message: `the managed drop-in folder cannot be listed (${code ?? (err as Error).message})`,
      hint: 'it must be a folder wicket may read',
    };
    layers.push(layerFromResult('managed', dir, { status: 'error', warning: `${dir}: ${problem.message}`, problem }));
    return layers;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    layers.push(layerFromResult('managed', file, readSettingsSource(file)));
  }
  return layers;
}
