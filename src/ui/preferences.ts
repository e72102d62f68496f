/**
 * The app's preferences, as Claude Code 2.1 keeps them: in the settings (user settings first), with
 * `~/.claude.json` as the older place they are still read from. `/config`, `/theme` and `/vim`
 * write them to the user settings file (`~/.claude/settings.json`).
 */
import path from 'node:path';
import { readJsonObject } from '../settings/global-config.js';
import { globalConfigPath, userSettingsPath } from '../settings/paths.js';
import { updateSettingsFile } from '../settings/persist.js';

export const THEMES = ['dark', 'light', 'dark-daltonized', 'light-daltonized', 'dark-ansi', 'light-ansi'] as const;
export type ThemeName = (typeof THEMES)[number];
export const NOTIF_CHANNELS = ['auto', 'terminal_bell', 'iterm2', 'iterm2_with_bell', 'kitty', 'ghostty', 'notifications_disabled'] as const;
export type NotifChannel = (typeof NOTIF_CHANNELS)[number];

export interface Preferences {
  theme: ThemeName;
  editorMode: 'normal' | 'vim';
  verbose: boolean;
  preferredNotifChannel: NotifChannel;
  autoCompactEnabled: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'dark',
  editorMode: 'normal',
  verbose: false,
  preferredNotifChannel: 'auto',
  autoCompactEnabled: true,
};

export interface PreferenceFiles {
  home: string;
  configDir?: string;
}

/** From the merged settings, then `~/.claude.json`, then the defaults; a value of the wrong kind is left out. */
export function readPreferences(merged: Record<string, unknown>, files: PreferenceFiles): Preferences {
  let global: Record<string, unknown> = {};
  try {
    global = readJsonObject(globalConfigPath(files.home, files.configDir));
  } catch {
    // an unreadable ~/.claude.json holds no preferences
  }
  const pick = <K extends keyof Preferences>(key: K, ok: (v: unknown) => boolean): Preferences[K] => {
    for (const v of [merged[key], global[key]]) if (ok(v)) return v as Preferences[K];
    return DEFAULT_PREFERENCES[key];
  };
  const oneOf = (list: readonly string[]) => (v: unknown) => typeof v === 'string' && list.includes(v);
  return {
    theme: pick('theme', oneOf(THEMES)),
    // Claude Code once called the normal mode "emacs".
    editorMode: pick('editorMode', oneOf(['normal', 'vim'])),
    verbose: pick('verbose', (v) => typeof v === 'boolean'),
    preferredNotifChannel: pick('preferredNotifChannel', oneOf(NOTIF_CHANNELS)),
    autoCompactEnabled: pick('autoCompactEnabled', (v) => typeof v === 'boolean'),
  };
}

/** Writes one preference to the user settings file; returns the file. */
export async function savePreference<K extends keyof Preferences>(key: K, value: Preferences[K], files: PreferenceFiles): Promise<string> {
  return saveUserSetting(key, value, files);
}

/** Writes one key of the user settings file (`model` too); returns the file. */
export async function saveUserSetting(key: string, value: unknown, files: PreferenceFiles): Promise<string> {
  const file = userSettingsPath(files.home, files.configDir);
  await updateSettingsFile(file, (data) => {
    if (data[key] === value) return false;
    data[key] = value;
    return true;
  });
  return file;
}

/** `~/.claude/settings.json`, as the person knows it. */
export function shortPath(file: string, home: string): string {
  const rel = path.relative(home, file);
  return rel && !rel.startsWith('..') ? `~/${rel}` : file;
}
