/**
 * The person's keybindings: `keybindings.json` in Claude Code's folder (`~/.claude`, or
 * CLAUDE_CONFIG_DIR), read at start and again whenever it changes.
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { defaultBlocks } from './defaults.js';
import { Keymap } from './keymap.js';
import { parseKeybindingsJson } from './parse.js';

export function keybindingsFile(configDir: string): string {
  return path.join(configDir, 'keybindings.json');
}

/** The keymap: defaults, then the file's bindings (a missing file adds nothing); the file's problems as warnings. */
export function loadKeymap(configDir: string): { keymap: Keymap; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(keybindingsFile(configDir), 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return { keymap: new Keymap(defaultBlocks()), warnings: missing ? [] : [`keybindings.json could not be read: ${(err as Error).message}`] };
  }
  const { blocks, warnings } = parseKeybindingsJson(text);
  return { keymap: new Keymap([...defaultBlocks(), ...blocks]), warnings: warnings.map((w) => `${keybindingsFile(configDir)}: ${w}`) };
}

/** Calls `changed` when the file changes (the folder is watched: the file may not exist yet). */
export function watchKeybindings(configDir: string, changed: () => void): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(configDir, { persistent: false }, (_event, name) => {
      if (name === 'keybindings.json') changed();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    return () => {};
  }
  return () => watcher?.close();
}
