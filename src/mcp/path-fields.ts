/**
 * The files an MCP tool call names, so the permission gate can hold Read and Edit deny rules against
 * them as it does for a built-in tool's path. Found anywhere in the input (nested objects and arrays
 * too): a string, or a list of strings, under a key that names a file (`path`, `file_path`,
 * `filename`, `paths`, `source`, `destination`, and their spellings in camelCase or with dashes),
 * and any string that is a `file://` URI. Relative paths resolve against the session's working
 * directory, `~` against the home directory.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveToolPath } from '../base/paths.js';

/** Keys (lower case, without `_` and `-`) whose string values are paths. */
const PATH_KEYS = new Set([
  'path',
  'paths',
  'file',
  'files',
  'filepath',
  'filepaths',
  'filename',
  'filenames',
  'source',
  'sources',
  'src',
  'destination',
  'destinations',
  'dest',
  'target',
  'directory',
  'dir',
]);

/** Walks at most this many values; a larger input is cut off (the paths found so far still count). */
const MAX_VALUES = 10_000;

export function isPathKey(key: string): boolean {
  return PATH_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** Absolute paths named by `input`, in the order found, without repeats. */
export function mcpInputPaths(input: unknown, cwd: string, home: string): string[] {
  const found = new Set<string>();
  let budget = MAX_VALUES;
  const visit = (value: unknown, underPathKey: boolean, depth: number): void => {
    if (--budget < 0 || depth > 64) return;
    if (typeof value === 'string') {
      const p = fileUriPath(value) ?? (underPathKey && value.trim() !== '' ? resolveToolPath(value, cwd, home) : undefined);
      if (p !== undefined) found.add(p);
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) visit(v, underPathKey, depth + 1);
      return;
    }
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, isPathKey(k), depth + 1);
    }
  };
  visit(input, false, 0);
  return [...found];
}

/** The local path of a `file:` URI (percent-escapes decoded, any host ignored), or undefined. */
export function fileUriPath(value: string): string | undefined {
  if (!/^file:/i.test(value.trim())) return undefined;
  const uri = value.trim();
  try {
    return fileURLToPath(uri);
  } catch {
    // A host other than localhost, or an escaped `/`: read the path part anyway (fail closed).
  }
  try {
    return path.resolve('/', decodeURIComponent(new URL(uri).pathname));
  } catch {
    return path.resolve('/', uri.replace(/^file:\/*/i, ''));
  }
}
