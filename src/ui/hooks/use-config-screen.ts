/** /config's screen (ConfigDialog.tsx): each row's value now, and a change applied to the session and saved. */
import { resolveModel } from '../../base/models.js';
import type { AgentOptions } from '../../core/agent-options.js';
import { userSettingsPath } from '../../settings/paths.js';
import type { ConfigDialogProps, ConfigRow } from '../ConfigDialog.js';
import { saveUserSetting, shortPath, type Preferences } from '../preferences.js';
import type { PreferencesControl } from './use-preferences.js';

export interface ConfigDeps {
  base: Omit<AgentOptions, 'signal' | 'askUser'>;
  preferences: PreferencesControl;
  home: string;
  configDirOverride: string | undefined;
  info: (text: string, tone?: 'info' | 'warning' | 'error') => void;
}

const MODEL_ALIASES = ['sonnet', 'opus', 'haiku'];

export function useConfigScreen(open: boolean, close: () => void, d: ConfigDeps): ConfigDialogProps | undefined {
  if (!open) return undefined;
  const prefs = d.preferences.get();
  const model = MODEL_ALIASES.find((m) => resolveModel(m) === d.base.model) ?? d.base.model;
  const values = { ...stringValues(prefs), model } as Record<ConfigRow['key'], string>;
  const files = { home: d.home, configDir: d.configDirOverride };
  const onChange = (key: ConfigRow['key'], value: string) => {
    if (key === 'model') {
      d.base.model = resolveModel(value) ?? value;
      void saveUserSetting('model', value, files).catch((err) => d.info(`The model is set for this session only: ${(err as Error).message}`, 'warning'));
      return;
    }
    const typed = key === 'autoCompactEnabled' || key === 'verbose' ? value === 'true' : value;
    void d.preferences.set(key, typed as Preferences[typeof key]).catch(() => undefined);
  };
  return { values, onChange, onClose: close, file: shortPath(userSettingsPath(d.home, d.configDirOverride), d.home) };
}

function stringValues(p: Preferences): Record<keyof Preferences, string> {
  return {
    theme: p.theme,
    editorMode: p.editorMode,
    verbose: String(p.verbose),
    preferredNotifChannel: p.preferredNotifChannel,
    autoCompactEnabled: String(p.autoCompactEnabled),
  };
}
