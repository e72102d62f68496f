/** The keymap of the session: Claude Code's defaults and `~/.claude/keybindings.json`, read again when the file changes. */
import { useEffect, useState } from 'react';
import type { Keymap } from '../keybindings/keymap.js';
import { loadKeymap, watchKeybindings } from '../keybindings/load.js';

export function useKeymap(configDir: string, warn: (text: string) => void): Keymap {
  const [loaded, setLoaded] = useState(() => loadKeymap(configDir));
  useEffect(() => {
    for (const w of loaded.warnings) warn(w);
  }, [loaded]);
  useEffect(() => watchKeybindings(configDir, () => setLoaded(loadKeymap(configDir))), [configDir]);
  return loaded.keymap;
}
