/**
 * Where settings files live (reference/claude-code.md §1.1). The only module that knows the layout of
 * ~/.claude; every function takes the home directory as a parameter, so tests never touch the real one.
 */
import path from 'node:path';
import type { RuleSource } from '../base/rule-parse.js';

export const DEFAULT_MANAGED_SETTINGS = '/etc/claude-code/managed-settings.json';

/** Claude Code's per-user folder: `$CLAUDE_CONFIG_DIR` or `~/.claude`. */
export function userConfigDir(home: string, configDir?: string): string {
  return configDir ? path.resolve(configDir) : path.join(home, '.claude');
}

/** wicket's own state folder (sessions, history, MCP sign-ins): `$WICKET_HOME` or `~/.wicket`. */
export function wicketHomeDir(home: string, env: Record<string, string | undefined>): string {
  return env.WICKET_HOME || path.join(home, '.wicket');
}

/** Claude Code's global state file, where MCP servers of the user and local scopes are kept. */
export function globalConfigPath(home: string, configDir?: string): string {
  return path.join(configDir || home, '.claude.json');
}

/** Where Claude Code keeps installed plugins and marketplaces: `<config dir>/plugins`. */
export function userPluginsDir(home: string, configDir?: string): string {
  return path.join(userConfigDir(home, configDir), 'plugins');
}

export function userSettingsPath(home: string, configDir?: string): string {
  return path.join(userConfigDir(home, configDir), 'settings.json');
}

/** Shared project settings: read only from the folder wicket starts in. */
export function projectSettingsPath(projectRoot: string): string {
  return path.join(projectRoot, '.claude', 'settings.json');
}

/** Personal project settings; "Yes, don't ask again" rules are written here. */
export function localSettingsPath(projectRoot: string): string {
  return path.join(projectRoot, '.claude', 'settings.local.json');
}

/** Drop-in folder next to the managed file (`managed-settings.d/*.json`, merged in name order). */
export function managedDropInDir(managedPath: string): string {
  return path.join(path.dirname(managedPath), 'managed-settings.d');
}

/**
 * The folder a `/path` anchor in a rule is relative to (reference §2.3): project and local files →
 * the project folder (the parent of `.claude/`); the user file → `~/.claude/`; a `--settings` or
 * managed file → its own folder; command-line flags and session rules → the project root.
 */
export function ruleAnchorRoot(source: RuleSource, sourcePath: string | undefined, projectRoot: string): string {
  if (!sourcePath) return projectRoot;
  const dir = path.dirname(sourcePath);
  if ((source === 'projectSettings' || source === 'localSettings') && path.basename(dir) === '.claude') {
    return path.dirname(dir);
  }
  return dir;
}
