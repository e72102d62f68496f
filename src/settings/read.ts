/**
 * Reads one settings source. Never throws: a missing file is simply "not there"; anything else that
 * keeps the file from being read as a JSON object is an error naming the place (line and column) and
 * the problem, and, where one is obvious, the fix.
 *
 * Settings files (`{ settings: true }`) are read as editors write them: a UTF-8 byte order mark,
 * comments and trailing commas are accepted (JSONC). What stays ambiguous is an error: a key written
 * twice in one object, bytes that are not UTF-8, a UTF-16 file, a symbolic link to nothing, a folder,
 * pipe or device where the file should be. Other JSON files wicket reads (plugin manifests, .mcp.json)
 * stay strict JSON.
 */
import { lstatSync, readFileSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { readJsonText, type JsonPath, type JsonTextProblem, type TextPosition } from './json-text.js';

/** `--settings` values (file or JSON text) are capped at 2 MiB; settings files use the same cap. */
export const MAX_SETTINGS_BYTES = 2 * 1024 * 1024;

export interface ReadProblem extends JsonTextProblem {
  /** How to fix it, when there is one obvious way. */
  hint?: string;
}

export type ReadResult =
  | { status: 'missing' }
  | { status: 'loaded'; data: Record<string, unknown>; at: (path: JsonPath) => TextPosition }
  | { status: 'error'; warning: string; problem: ReadProblem };

export interface ReadOptions {
  /** A settings file: JSONC, strict about encoding and repeated keys (see above). */
  settings?: boolean;
  /** Read a pipe or a device too (`--settings <(…)`); only regular files otherwise. */
  anyKind?: boolean;
}

const START: TextPosition = { line: 1, column: 1 };

function failed(label: string, problem: ReadProblem, syntax = false): ReadResult {
  const where = syntax ? `invalid JSON at line ${problem.line}, column ${problem.column}: ` : '';
  return { status: 'error', warning: `${label}: ${where}${problem.message}; the file is ignored`, problem };
}

/** Parses JSON text already decoded; `label` names the file (or "--settings") in the warning. */
export function parseSettingsText(text: string, label: string, opts: ReadOptions = {}): ReadResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const json = readJsonText(body, { jsonc: opts.settings === true });
  if (json.problem) return failed(label, json.problem, true);
  if (json.value === undefined) return { status: 'loaded', data: {}, at: () => START };
  const value = json.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return failed(label, {
      ...json.at([]),
      message: `the top level must be a JSON object ({ … }), found ${kind}`,
      hint: 'put the settings inside one { … } object',
    });
  }
  if (opts.settings) {
    const twice = json.duplicateKey();
    if (twice) return failed(label, { ...twice, hint: 'keep one of them, with the entries of both' });
  }
  return { status: 'loaded', data: value as Record<string, unknown>, at: (p) => json.at(p) };
}

/** Decodes a settings file's bytes: UTF-8, with or without a byte order mark. */
export function parseSettingsBytes(bytes: Buffer, label: string, opts: ReadOptions = {}): ReadResult {
  if (opts.settings) {
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      return failed(label, { ...START, message: 'the file is saved as UTF-16; settings files are read as UTF-8', hint: 'save it as UTF-8' });
    }
    const bad = firstInvalidUtf8(bytes);
    if (bad) return failed(label, { ...bad, message: 'bytes that are not valid UTF-8', hint: 'save the file as UTF-8' });
  }
  return parseSettingsText(bytes.toString('utf8'), label, opts);
}

export function readSettingsFile(file: string, opts: ReadOptions = {}): ReadResult {
  let st: Stats;
  try {
    st = statSync(file);
  } catch (err) {
    return statFailed(file, err as NodeJS.ErrnoException);
  }
  if (st.isDirectory()) return failed(file, { ...START, message: 'is a folder, not a settings file', hint: 'remove or rename the folder' });
  if (!st.isFile() && !opts.anyKind)
    return failed(file, { ...START, message: 'is not a regular file (a pipe, a socket or a device)', hint: 'replace it with a regular file' });
  if (st.size > MAX_SETTINGS_BYTES) return tooBig(file, st.size);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    return cannotRead(file, err as NodeJS.ErrnoException);
  }
  if (bytes.length > MAX_SETTINGS_BYTES) return tooBig(file, bytes.length);
  return parseSettingsBytes(bytes, file, opts);
}

function tooBig(file: string, size: number): ReadResult {
  return failed(file, {
    ...START,
    message: `${size} bytes is over the ${MAX_SETTINGS_BYTES}-byte limit for a settings file`,
    hint: 'settings files are small: remove what does not belong in it',
  });
}

function cannotRead(file: string, err: NodeJS.ErrnoException): ReadResult {
  return failed(file, { ...START, message: `cannot be read (${err.code ?? err.message})`, hint: 'check that you may read it (its permissions and owner)' });
}

/** No file at all is "missing"; a symbolic link to nothing, a loop or a refused look-up is an error. */
function statFailed(file: string, err: NodeJS.ErrnoException): ReadResult {
  if (err.code === 'ENOTDIR') return { status: 'missing' };
  if (err.code !== 'ENOENT') return cannotRead(file, err);
  try {
    if (!lstatSync(file).isSymbolicLink()) return { status: 'missing' };
  } catch {
    return { status: 'missing' };
  }
  let target = '';
  try {
    target = ` to ${readlinkSync(file)}`;
  } catch {
    // the link went away meanwhile: still say what it was
  }
  return failed(file, { ...START, message: `is a symbolic link${target}, which does not exist`, hint: 'restore what it points to, or remove the link' });
}

/** Where the first byte that is not UTF-8 is, as a line and column of the text before it. */
function firstInvalidUtf8(bytes: Buffer): TextPosition | undefined {
  const decode = (n: number, stream: boolean) => new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream });
  try {
    decode(bytes.length, false);
    return undefined;
  } catch {
    // find the longest prefix that decodes (a sequence cut at the end is fine while streaming)
  }
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      decode(mid, true);
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  const before = decode(lo, true).replace(/^\uFEFF/, '');
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}
