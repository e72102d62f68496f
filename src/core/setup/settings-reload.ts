/**
 * Settings files are watched while a session runs, as Claude Code does: when one changes on disk,
 * ConfigChange hooks (of the settings as they were) may refuse the change, except for the managed
 * policy; otherwise the files are read again and the new permission rules, hooks and keys apply from
 * the next call on. Rules the session added itself ("don't ask again", grants) and plugins' hooks
 * are kept. The model, effort and output style stay as the session started (as in Claude Code).
 *
 * A file that cannot be read as settings after a change (problem.ts) changes nothing: the settings
 * read last, deny rules and hooks included, stay in force until the file is fixed, and the person is
 * told where the file is broken. (A file left out at start by the person's choice loads once fixed.)
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { ConfigSource } from '../../hooks/types.js';
import type { LoadedSettings } from '../../settings/load.js';
import { isOwnWrite } from '../../settings/persist.js';
import { problemLine, SettingsUnreadableError } from '../../settings/problem.js';
import { DEFAULT_MANAGED_SETTINGS, localSettingsPath, projectSettingsPath, userSettingsPath } from '../../settings/paths.js';
import { readDenyPatterns } from '../../permissions/search-deny.js';
import { ownStateDenyRules } from '../../permissions/own-state.js';
import type { CliOptions } from './options.js';
import { sessionSettings, type Setup } from './session-setup.js';

export interface ReloadDeps {
  env: Record<string, string | undefined>;
  home: string;
  trusted?: () => boolean;
  /** A line for the person: what was reloaded or refused. */
  note: (text: string) => void;
}

const SETTLE_MS = 100;

/** Starts watching; returns the function that stops. Never throws: a folder that cannot be watched is left out. */
export function watchSettings(opts: CliOptions, setup: Setup, deps: ReloadDeps): () => void {
  const files = settingsFiles(opts, setup.cwd, deps);
  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  let chain = Promise.resolve();
  for (const dir of new Set([...files.keys()].map((f) => path.dirname(f)))) {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        const file = name ? path.join(dir, name.toString()) : undefined;
        if (!file || !files.has(file)) return;
        clearTimeout(timers.get(file));
        // Editors write in several steps: read the file once it has settled.
        timers.set(file, setTimeout(() => (chain = chain.then(() => reload(opts, setup, deps, file, files.get(file)!))), SETTLE_MS).unref());
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // a folder that does not exist (yet) is not watched
    }
  }
  return () => {
    for (const w of watchers) w.close();
    for (const t of timers.values()) clearTimeout(t);
  };
}

/**
 * Print mode: the watch starts after `delayMs`, so a run that ends sooner (most of them) spends
 * nothing on it.
 */
export function watchSettingsSoon(opts: CliOptions, setup: Setup, deps: ReloadDeps, delayMs: number): () => void {
  let stop: (() => void) | undefined;
  const timer = setTimeout(() => (stop = watchSettings(opts, setup, deps)), delayMs).unref();
  return () => {
    clearTimeout(timer);
    stop?.();
  };
}

function settingsFiles(opts: CliOptions, cwd: string, deps: ReloadDeps): Map<string, ConfigSource> {
  const files = new Map<string, ConfigSource>([
    [userSettingsPath(deps.home, deps.env.CLAUDE_CONFIG_DIR || undefined), 'user_settings'],
    [projectSettingsPath(cwd), 'project_settings'],
    [localSettingsPath(cwd), 'local_settings'],
    [deps.env.WICKET_MANAGED_SETTINGS || DEFAULT_MANAGED_SETTINGS, 'policy_settings'],
  ]);
  return new Map([...files].map(([f, s]) => [path.resolve(f), s]));
}

async function reload(opts: CliOptions, setup: Setup, deps: ReloadDeps, file: string, source: ConfigSource): Promise<void> {
  // The session's own write ("don't ask again", /permissions) is read again quietly, with no hook.
  const own = isOwnWrite(file, readText(file));
  const hooks = setup.options.hooks;
  const verdict = own ? undefined : await hooks.configChange?.({ source, filePath: file }, new AbortController().signal).catch(() => undefined);
  for (const n of hooks.drainNotices?.() ?? []) deps.note(n);
  if (verdict?.block && source !== 'policy_settings') {
    deps.note(`${file} changed; a ConfigChange hook kept the settings as they were: ${verdict.block}`);
    return;
  }
  let fresh: LoadedSettings;
  try {
    fresh = sessionSettings(opts, deps.env, setup.cwd, deps.home, deps.trusted);
  } catch (err) {
    if (err instanceof SettingsUnreadableError)
      deps.note(
        [
          `${file} changed, but the settings cannot be read:`,
          ...err.problems.map(problemLine),
          'The settings read before stay in force, deny rules and hooks included, until this is fixed.',
        ].join('\n'),
      );
    return;
  }
  apply(setup, fresh, deps.home);
  if (own) return;
  const warnings = fresh.warnings.filter((w) => w.startsWith(file));
  deps.note([`Settings reloaded: ${file} changed.`, ...warnings].join('\n'));
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The new files' rules, hooks and keys into the live objects the session reads. */
function apply(setup: Setup, fresh: LoadedSettings, home: string): void {
  const { loaded, options } = setup;
  for (const list of ['allow', 'ask', 'deny'] as const) {
    const own = loaded.rules[list].filter((r) => r.source === 'session');
    loaded.rules[list].splice(0, loaded.rules[list].length, ...fresh.rules[list], ...own);
  }
  loaded.rules.deny.push(...ownStateDenyRules(loaded.rules.deny, setup.places.wicketHome));
  // Plugins', agents' and the Agent SDK host's hooks come from elsewhere: they stay.
  const pluginHooks = loaded.hooks.filter((g) => g.plugin !== undefined || g.agent !== undefined || g.source === 'sdk');
  loaded.hooks.splice(0, loaded.hooks.length, ...fresh.hooks, ...pluginHooks);
  loaded.merged = fresh.merged;
  const settings = options.settings as Record<string, unknown>;
  for (const key of Object.keys(settings)) if (!key.startsWith('__') && !(key in fresh.merged)) delete settings[key];
  Object.assign(settings, fresh.merged, { __readDenyGlobs: readDenyPatterns(loaded.rules.deny, { projectRoot: setup.cwd, homeDir: home }) });
}
