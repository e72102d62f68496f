/**
 * Loads every settings source in Claude Code's order (reference/claude-code.md §1): user, shared
 * project, local project, `--settings`, command-line flags, managed (lowest to highest). Never throws.
 * A source that cannot be read as settings (problem.ts) is not used at all, and is listed in `errors`:
 * whoever runs a session must stop on them (session-setup.ts), unless the person chose to go on
 * without that file (`without`; never the managed policy or the command line's). Smaller problems
 * (unknown keys, a rule that never matches) are warnings, and the rest of the file applies.
 *
 * Deliberate choices, where Claude Code leaves room:
 * - a shared project file (`.claude/settings.json`, committed by others) cannot start wicket in
 *   bypassPermissions mode; local, user, `--settings` and managed files can;
 * - `auto` mode does not exist in wicket: asked for, it falls back to default with a warning.
 */
import path from 'node:path';
import type { HookGroup } from '../base/hook-config.js';
import { parsePermissionMode, type PermissionMode } from '../base/permission-modes.js';
import type { RuleSource } from '../base/rule-parse.js';
import { emptyRules, type PermissionRules } from '../base/permission-types.js';
import { mergeLayers } from './merge.js';
import { DEFAULT_MANAGED_SETTINGS, localSettingsPath, projectSettingsPath, userSettingsPath } from './paths.js';
import { cliRuleLayer, readManagedLayers, readSettingsSource, type Layer, layerFromResult } from './layers.js';
import { canGoOnWithout, goingOnWithout, type SettingsProblem } from './problem.js';
import { parseSettingsText } from './read.js';
import { MANAGED_ONLY_IN_SAFE_MODE } from './safe-mode.js';
import { isWorkspaceTrusted } from './trust.js';
import { isObject } from './validate.js';

export interface LoadSettingsOptions {
  cwd: string;
  home: string;
  /** CLAUDE_CONFIG_DIR: moves ~/.claude. */
  configDir?: string;
  /** Default /etc/claude-code/managed-settings.json. */
  managedPath?: string;
  /** `--settings`: a file path or JSON text. */
  cliSettings?: string;
  /** Settings an Agent SDK host sent in its `initialize` request (JSON text): a layer above `--settings`. */
  hostSettings?: string;
  /** Managed settings an Agent SDK host sent in `initialize` (JSON text): a policy layer, below the managed files. */
  hostManagedSettings?: string;
  /** `--allowedTools` / `--disallowedTools`, already split. */
  cliAllowed?: string[];
  cliDisallowed?: string[];
  /** `--setting-sources`: which of the user, project and local files load (all when undefined); managed settings and flags always do. */
  sources?: readonly string[];
  /**
   * Whether the workspace is trusted: the project files' allow rules and additional directories
   * apply only then (trust.ts). Asked only when a project file has some. Default: `~/.claude.json`.
   */
  trusted?: () => boolean;
  /** Safe mode: hooks and the customizing keys come from the managed policy only (safe-mode.ts). */
  safeMode?: boolean;
  /** User, project or local files the person chose to go on without while they cannot be read (a fixed file loads again). */
  without?: readonly string[];
  /** A file read in place of the project's shared `.claude/settings.json` (a candidate policy, `wicket rules test --settings`). */
  projectSettingsFile?: string;
}

export interface SettingsSourceInfo {
  source: RuleSource;
  path?: string;
  loaded: boolean;
  /** There, but it cannot be read as settings (see `errors`). */
  unreadable?: boolean;
}

export interface LoadedSettings {
  /** All keys of all sources, merged; unknown keys kept. */
  merged: Record<string, unknown>;
  /** Highest precedence first. */
  sources: SettingsSourceInfo[];
  /** One per problem: names the file, the place or key, and what is wrong. */
  warnings: string[];
  /** Sources that cannot be read as settings and were left out: a session must not start on these (settingsErrors). */
  errors: SettingsProblem[];
  /** Each list in precedence order (managed first); every rule carries source and sourcePath. */
  rules: PermissionRules;
  defaultMode?: PermissionMode;
  /** Absolute. */
  additionalDirectories: string[];
  env: Record<string, string>;
  model?: string;
  /** Hook matcher groups in precedence order; empty when hooks are disabled. */
  hooks: HookGroup[];
  /** `permissions.disableBypassPermissionsMode: "disable"` in any source. */
  disableBypassPermissions: boolean;
  /** Why hooks are off or limited, for the report. */
  hookPolicy?: 'disableAllHooks' | 'allowManagedHooksOnly' | 'safeMode';
  /** `autoMemoryDirectory`, from any source but the shared project file (which must not move where the model may write). */
  autoMemoryDirectory?: string;
  /** The managed policy's `claudeMd`: instructions it gives every session. */
  managedClaudeMd?: string;
  /**
   * `pluginConfigs["agents-md@builtin"]` from the sources Claude Code reads it from (the managed
   * policy, the user's file and --settings; not the project's files), the highest one that sets it.
   */
  agentsMdConfig?: unknown;
}

export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const layers = readLayers(opts);
  const warnings = layers.flatMap((l) => l.warnings);
  const errors: SettingsProblem[] = [];
  for (const p of layers.flatMap((l) => l.problems)) {
    if (canGoOnWithout(p) && opts.without?.includes(p.file)) warnings.push(goingOnWithout(p));
    else errors.push(p);
  }
  withholdUntrusted(layers, opts, warnings);
  const merged = mergeLayers(layers.map((l) => l.data));
  if (opts.safeMode) keepManagedOnly(merged, layers);
  keepManagedKeys(merged, layers, warnings);
  const byPrecedence = [...layers].reverse();
  const managedOnlyRules = layers.some((l) => l.source === 'managed' && l.data.allowManagedPermissionRulesOnly === true);
  const ruleLayers = managedOnlyRules ? byPrecedence.filter((l) => l.source === 'managed') : byPrecedence;
  const rules = emptyRules();
  for (const l of ruleLayers) for (const list of ['allow', 'ask', 'deny'] as const) rules[list].push(...l.rules[list]);
  const disableBypassPermissions = layers.some((l) => permsOf(l).disableBypassPermissionsMode === 'disable');
  const defaultMode = pickDefaultMode(byPrecedence, disableBypassPermissions, warnings);
  const { hooks, hookPolicy } = pickHooks(layers, merged, opts.safeMode === true);
  const env = isObject(merged.env) ? (merged.env as Record<string, string>) : {};
  return {
    merged,
    sources: byPrecedence.filter((l) => l.info).map((l) => l.info!),
    warnings,
    errors,
    rules,
    ...(defaultMode ? { defaultMode } : {}),
    additionalDirectories: additionalDirectories(layers, opts),
    env,
    ...(typeof merged.model === 'string' ? { model: merged.model } : {}),
    hooks,
    disableBypassPermissions,
    ...(hookPolicy ? { hookPolicy } : {}),
    ...memoryKeys(byPrecedence),
  };
}

/** The memory keys that only some sources may set. */
function memoryKeys(byPrecedence: Layer[]): Pick<LoadedSettings, 'autoMemoryDirectory' | 'managedClaudeMd' | 'agentsMdConfig'> {
  const dir = byPrecedence.find((l) => l.source !== 'projectSettings' && typeof l.data.autoMemoryDirectory === 'string')?.data.autoMemoryDirectory;
  const claudeMd = byPrecedence.find((l) => l.source === 'managed' && typeof l.data.claudeMd === 'string')?.data.claudeMd;
  const agents = byPrecedence
    .filter((l) => l.source !== 'projectSettings' && l.source !== 'localSettings')
    .map((l) => agentsMdConfigOf(l.data))
    .find((c) => c !== undefined);
  return {
    ...(typeof dir === 'string' ? { autoMemoryDirectory: dir } : {}),
    ...(typeof claudeMd === 'string' ? { managedClaudeMd: claudeMd } : {}),
    ...(agents !== undefined ? { agentsMdConfig: agents } : {}),
  };
}

function agentsMdConfigOf(data: Record<string, unknown>): unknown {
  const configs = data.pluginConfigs;
  return isObject(configs) ? (configs as Record<string, unknown>)['agents-md@builtin'] : undefined;
}

/** All layers, lowest precedence first. */
function readLayers(opts: LoadSettingsOptions): Layer[] {
  const layers: Layer[] = [];
  const wanted = (s: string) => !opts.sources || opts.sources.includes(s);
  const user = userSettingsPath(opts.home, opts.configDir);
  if (wanted('user')) layers.push(layerFromResult('userSettings', user, readSettingsSource(user)));
  const project = opts.projectSettingsFile ?? projectSettingsPath(opts.cwd);
  if (wanted('project') && path.resolve(project) !== path.resolve(user)) layers.push(layerFromResult('projectSettings', project, readSettingsSource(project)));
  const local = localSettingsPath(opts.cwd);
  if (wanted('local')) layers.push(layerFromResult('localSettings', local, readSettingsSource(local)));
  if (opts.cliSettings !== undefined) layers.push(cliSettingsLayer(opts.cliSettings, opts.cwd));
  if (opts.hostSettings !== undefined)
    layers.push(layerFromResult('cli', undefined, parseSettingsText(opts.hostSettings, 'initialize.settings', { settings: true }), 'initialize.settings'));
  if (opts.cliAllowed?.length || opts.cliDisallowed?.length) layers.push(cliRuleLayer(opts.cliAllowed ?? [], opts.cliDisallowed ?? []));
  if (opts.hostManagedSettings !== undefined)
    layers.push(
      layerFromResult(
        'managed',
        undefined,
        parseSettingsText(opts.hostManagedSettings, 'initialize.managedSettings', { settings: true }),
        'initialize.managedSettings',
      ),
    );
  layers.push(...readManagedLayers(opts.managedPath ?? DEFAULT_MANAGED_SETTINGS));
  return layers;
}

/**
 * In a workspace the person has not trusted, the project files' `permissions.allow` and
 * `permissions.additionalDirectories` (and the local file's `autoMemoryDirectory`) are left out, each
 * file with one warning that says how to trust it.
 */
function withholdUntrusted(layers: Layer[], opts: LoadSettingsOptions, warnings: string[]): void {
  const fromProject = layers.filter(
    (l) =>
      (l.source === 'projectSettings' || l.source === 'localSettings') &&
      (l.rules.allow.length || permsOf(l).additionalDirectories !== undefined || (l.source === 'localSettings' && l.data.autoMemoryDirectory !== undefined)),
  );
  if (!fromProject.length) return;
  if ((opts.trusted ?? (() => isWorkspaceTrusted(opts)))()) return;
  for (const layer of fromProject) {
    const left: string[] = [];
    if (layer.rules.allow.length) left.push(`${layer.rules.allow.length} permissions.allow ${layer.rules.allow.length === 1 ? 'entry' : 'entries'}`);
    if (permsOf(layer).additionalDirectories !== undefined) left.push('permissions.additionalDirectories');
    // autoMemoryDirectory opens a folder to the file tools without asking: the same trust as allow rules.
    if (layer.data.autoMemoryDirectory !== undefined && layer.source === 'localSettings') left.push('autoMemoryDirectory');
    layer.rules = { ...layer.rules, allow: [] };
    const { allow: _allow, additionalDirectories: _dirs, ...perms } = permsOf(layer);
    const { autoMemoryDirectory: _memory, ...rest } = layer.data;
    layer.data = { ...rest, permissions: perms };
    warnings.push(
      `${layer.label}: ignoring ${left.join(' and ')}: this workspace has not been trusted. Trust it with \`wicket trust\` (for CI too: it records hasTrustDialogAccepted in ~/.claude.json, as Claude Code does), or run wicket here once without -p and answer "Yes, I trust this folder", or put the rules in your own settings`,
    );
  }
}

/** `--settings`: JSON text, or a file (a pipe too: `--settings <(…)`); a file that is not there is a problem. */
function cliSettingsLayer(value: string, cwd: string): Layer {
  if (value.trim().startsWith('{')) return layerFromResult('cli', undefined, parseSettingsText(value, '--settings', { settings: true }), '--settings');
  const file = path.resolve(cwd, value);
  const result = readSettingsSource(file, { anyKind: true });
  if (result.status === 'missing') {
    const problem = { line: 1, column: 1, message: 'no such file (given to --settings)', hint: 'check the path, or pass the settings as JSON text' };
    return layerFromResult('cli', file, { status: 'error', warning: `--settings ${file}: no such file`, problem });
  }
  return layerFromResult('cli', file, result);
}

function permsOf(layer: Layer): Record<string, unknown> {
  return isObject(layer.data.permissions) ? layer.data.permissions : {};
}

function pickDefaultMode(byPrecedence: Layer[], bypassDisabled: boolean, warnings: string[]): PermissionMode | undefined {
  for (const layer of byPrecedence) {
    const raw = permsOf(layer).defaultMode;
    if (typeof raw !== 'string') continue;
    const where = `${layer.label}: permissions.defaultMode`;
    const mode = parsePermissionMode(raw);
    // Claude Code's auto mode asks a model instead of the person; wicket asks the person, and never
    // falls through to a lower source's mode, which could allow more.
    if (raw === 'auto') {
      warnings.push(`${where} "auto" is not available in wicket; default is used`);
      return 'default';
    }
    // Not reached from a settings file (guards.ts stops on an unknown mode first).
    if (!mode) continue;
    if (mode === 'bypassPermissions' && layer.source === 'projectSettings') {
      warnings.push(
        `${where} "bypassPermissions" is not honoured from a shared project file; set it in .claude/settings.local.json or pass --dangerously-skip-permissions`,
      );
      continue;
    }
    if (mode === 'bypassPermissions' && bypassDisabled) {
      warnings.push(`${where} "bypassPermissions" is disabled by permissions.disableBypassPermissionsMode; ignored`);
      continue;
    }
    return mode;
  }
  return undefined;
}

function pickHooks(layers: Layer[], merged: Record<string, unknown>, safeMode: boolean): Pick<LoadedSettings, 'hooks' | 'hookPolicy'> {
  if (merged.disableAllHooks === true) return { hooks: [], hookPolicy: 'disableAllHooks' };
  const managedOnly = layers.some((l) => l.source === 'managed' && l.data.allowManagedHooksOnly === true);
  const chosen = managedOnly || safeMode ? layers.filter((l) => l.source === 'managed') : layers;
  const hooks = [...chosen].reverse().flatMap((l) => l.hooks);
  if (managedOnly) return { hooks, hookPolicy: 'allowManagedHooksOnly' };
  return safeMode ? { hooks, hookPolicy: 'safeMode' } : { hooks };
}

/** Safe mode: the status line, output style, plugins and MCP approvals are the managed policy's, or none. */
/** Keys Claude Code reads from the managed policy only: another file's value is left out, with a warning. */
const MANAGED_ONLY_KEYS = ['deniedModels'];

function keepManagedKeys(merged: Record<string, unknown>, layers: Layer[], warnings: string[]): void {
  for (const key of MANAGED_ONLY_KEYS) {
    for (const l of layers)
      if (l.source !== 'managed' && l.data[key] !== undefined) warnings.push(`${l.label}: "${key}" is read from the managed policy only; ignored here`);
    const managed = [...layers].reverse().find((l) => l.source === 'managed' && l.data[key] !== undefined);
    if (managed) merged[key] = managed.data[key];
    else delete merged[key];
  }
}

function keepManagedOnly(merged: Record<string, unknown>, layers: Layer[]): void {
  const managed = mergeLayers(layers.filter((l) => l.source === 'managed').map((l) => l.data));
  for (const key of MANAGED_ONLY_IN_SAFE_MODE) {
    if (managed[key] === undefined) delete merged[key];
    else merged[key] = managed[key];
  }
}

function additionalDirectories(layers: Layer[], opts: LoadSettingsOptions): string[] {
  const dirs = new Set<string>();
  for (const layer of [...layers].reverse()) {
    const list = permsOf(layer).additionalDirectories;
    if (!Array.isArray(list)) continue;
    for (const d of list) {
      if (typeof d !== 'string') continue;
      const expanded = d === '~' ? opts.home : d.startsWith('~/') ? path.join(opts.home, d.slice(2)) : d;
      dirs.add(path.resolve(opts.cwd, expanded));
    }
  }
  return [...dirs];
}
