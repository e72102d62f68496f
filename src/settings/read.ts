/**
 * Reads one settings source. Never throws: a missing file is simply "not there"; a file that cannot be
 * read or is not a JSON object gives exactly one warning naming the file, the place and the problem.
 */
import { readFileSync, statSync } from 'node:fs';
import { locateJsonError } from './json-error.js';

/** `--settings` values (file or JSON text) are capped at 2 MiB; settings files use the same cap. */
export const MAX_SETTINGS_BYTES = 2 * 1024 * 1024;

export type ReadResult =
  | { status: 'missing' }
  | { status: 'loaded'; data: Record<string, unknown> }
  | { status: 'error'; warning: string };

/** Parses settings JSON text; `label` names the file (or "--settings") in the warning. */
export function parseSettingsText(text: string, label: string): ReadResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return { status: 'loaded', data: {} };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const where = locateJsonError(body);
    const detail = where ? `line ${where.line}, column ${where.column}: ${where.message}` : (err as Error).message;
    return { status: 'error', warning: `${label}: invalid JSON at ${detail}; the file is ignored` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { status: 'error', warning: `${label}: the top level must be a JSON object, found ${kind}; the file is ignored` };
  }
  return { status: 'loaded', data: value as Record<string, unknown> };
}

export function readSettingsFile(file: string): ReadResult {
  let text: string;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return { status: 'error', warning: `${file}: is a directory, not a settings file; ignored` };
    if (st.size > MAX_SETTINGS_BYTES) {
      return { status: 'error', warning: `${file}: ${st.size} bytes is over the ${MAX_SETTINGS_BYTES}-byte limit; the file is ignored` };
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return { status: 'error', warning: `${file}: cannot be read (${code ?? (err as Error).message}); ignored` };
  }
  return parseSettingsText(text, file);
}
