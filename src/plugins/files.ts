/** Reading a plugin's files: its hook and MCP configs (a JSON file, or an object inline in the manifest), and its Markdown components. */
import { readFileSync, statSync } from 'node:fs';
import { markdownFiles } from '../settings/markdown-dir.js';
import { readSettingsFile } from '../settings/read.js';
import type { ConfigSource } from './types.js';

export type ConfigRead = { data: Record<string, unknown>; label: string; file?: string } | { error: string };

/** A config file or inline object of the plugin (hooks, MCP servers). */
export function readConfig(source: ConfigSource): ConfigRead {
  if ('inline' in source) return { data: source.inline, label: source.where };
  const read = readSettingsFile(source.file);
  if (read.status === 'loaded') return { data: read.data, label: source.file, file: source.file };
  return { error: read.status === 'error' ? read.warning : `${source.file}: cannot be read` };
}

/** The `.md` files of a folder (sorted by name), or the file itself; nothing when it cannot be read. */
export function markdownAt(p: string): Array<{ file: string; text: string }> {
  try {
    if (!statSync(p).isFile()) return markdownFiles(p);
    return [{ file: p, text: readFileSync(p, 'utf8').replace(/^\uFEFF/, '') }];
  } catch {
    return [];
  }
}
