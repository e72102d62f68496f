/** One settings source, read, checked and split into rules and hooks: the unit load.ts merges. */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseHooksConfig } from './hooks.js';
import type { HookGroup } from '../base/hook-config.js';
import type { RuleSource } from '../base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../base/permission-types.js';
import { managedDropInDir } from './paths.js';
import { readSettingsFile, type ReadResult } from './read.js';
import { collectRules } from './rules.js';
import { checkSettings, isObject } from './validate.js';

export interface Layer {
  source: RuleSource;
  label: string;
  /** The checked data (wrong-typed known keys removed). */
  data: Record<string, unknown>;
  rules: PermissionRules;
  hooks: HookGroup[];
  warnings: string[];
  /** For the list of sources; absent for command-line flags. */
  info?: { source: RuleSource; path?: string; loaded: boolean };
}

export function layerFromResult(source: RuleSource, file: string | undefined, result: ReadResult, label = file ?? source): Layer {
  const layer: Layer = {
    source,
    label,
    data: {},
    rules: emptyRules(),
    hooks: [],
    warnings: [],
    info: { source, ...(file ? { path: file } : {}), loaded: result.status === 'loaded' },
  };
  if (result.status === 'error') layer.warnings.push(result.warning);
  if (result.status !== 'loaded') return layer;
  const checked = checkSettings(result.data, label);
  layer.data = checked.clean;
  layer.warnings.push(...checked.warnings);
  if (isObject(checked.clean.permissions)) {
    const collected = collectRules(checked.clean.permissions, source, file, label);
    layer.rules = collected.rules;
    layer.warnings.push(...collected.warnings);
  }
  const hooks = parseHooksConfig(checked.clean.hooks, source, file, label);
  layer.hooks = hooks.groups;
  layer.warnings.push(...hooks.warnings);
  return layer;
}

/** `--allowedTools` / `--disallowedTools`: rules from the command line, `/path` anchored at the cwd. */
export function cliRuleLayer(allowed: string[], disallowed: string[]): Layer {
  const allow = collectRules({ allow: allowed }, 'cli', undefined, '--allowedTools');
  const deny = collectRules({ deny: disallowed }, 'cli', undefined, '--disallowedTools');
  return {
    source: 'cli',
    label: 'command line',
    data: {},
    rules: { allow: allow.rules.allow, ask: [], deny: deny.rules.deny },
    hooks: [],
    warnings: [...allow.warnings, ...deny.warnings],
  };
}

/** The managed file, then `managed-settings.d/*.json` in name order (later files win). */
export function readManagedLayers(managedPath: string): Layer[] {
  const layers = [layerFromResult('managed', managedPath, readSettingsFile(managedPath))];
  let names: string[] = [];
  try {
    names = readdirSync(managedDropInDir(managedPath)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return layers;
  }
  for (const name of names) {
    const file = path.join(managedDropInDir(managedPath), name);
    layers.push(layerFromResult('managed', file, readSettingsFile(file)));
  }
  return layers;
}
