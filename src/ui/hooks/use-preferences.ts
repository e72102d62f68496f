/**
 * The session's preferences (preferences.ts) as state of the app: /config, /theme and /vim change
 * them here, the change shows at once, and it is written to the user settings file.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { errorMessage } from '../../base/errors.js';
import { readPreferences, savePreference, type PreferenceFiles, type Preferences } from '../preferences.js';

export interface PreferencesControl {
  get(): Preferences;
  /** Changes it now; resolves with the file it was saved to (rejects when it could not be saved). */
  set<K extends keyof Preferences>(key: K, value: Preferences[K]): Promise<string>;
}

export function usePreferences(
  merged: Record<string, unknown>,
  files: PreferenceFiles,
  warn: (text: string) => void,
): { prefs: Preferences; control: PreferencesControl } {
  const [prefs, setPrefs] = useState(() => readPreferences(merged, files));
  const now = useRef(prefs);
  now.current = prefs;
  const set = useCallback(
    async <K extends keyof Preferences>(key: K, value: Preferences[K]): Promise<string> => {
      const next = { ...now.current, [key]: value };
      now.current = next;
      setPrefs(next);
      // The session reads its settings object too (autoCompactEnabled).
      merged[key] = value;
      try {
        return await savePreference(key, value, files);
      } catch (err) {
        warn(`${key} is set for this session only: ${errorMessage(err)}`);
        throw err;
      }
    },
    [merged, files.home, files.configDir],
  );
  const control = useMemo(() => ({ get: () => now.current, set }), [set]);
  return { prefs, control };
}
