/**
 * What the settings schema found in a file's data (schema.ts), kept on disk by the data it was found
 * in: a later start with the same settings reads the answer back instead of loading the validator
 * (a bundle of its own, read and run at every start of a project with a settings file otherwise).
 * The key holds the validator's build hash (set at build time; without it, as when the sources run
 * under test, nothing is kept) and the data as JSON, and an entry is used only for exactly that key.
 * The file's name is a 32-bit FNV-1a hash of the key and its length. A cache that cannot be read or
 * written only costs the check.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { hashText } from '../base/fs/version.js';
import type { JsonPath } from './json-text.js';
import { wicketHomeDir } from './paths.js';

/** One thing the schema finds wrong in a file's data (schema.ts). */
export interface SchemaFinding {
  path: JsonPath;
  message: string;
  /** The value is of the wrong type where it stands: it is left out, so no reader meets it. */
  drop: boolean;
}

declare const WICKET_SETTINGS_SCHEMA_HASH: string | undefined;
const version = typeof WICKET_SETTINGS_SCHEMA_HASH === 'string' ? WICKET_SETTINGS_SCHEMA_HASH : undefined;

/** The findings for `data`, from the cache when the same data was checked by the same validator before. */
export function cachedFindings(data: Record<string, unknown>, check: (data: Record<string, unknown>) => SchemaFinding[]): SchemaFinding[] {
  if (!version) return check(data);
  const key = `${version}\n${JSON.stringify(data)}`;
  const file = path.join(cacheDir(), 'settings-check', `${hashText(key)}-${key.length}.json`);
  const cached = readFindings(file, key);
  if (cached) return cached;
  const findings = check(data);
  writeFindings(file, key, findings);
  return findings;
}

function cacheDir(): string {
  return path.join(wicketHomeDir(homedir(), process.env), 'cache');
}

function readFindings(file: string, key: string): SchemaFinding[] | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; findings?: unknown };
    if (v.key !== key || !Array.isArray(v.findings)) return undefined; // another key with the same hash
    return v.findings.every(isFinding) ? v.findings : undefined;
  } catch {
    return undefined;
  }
}

function isFinding(f: unknown): f is SchemaFinding {
  const o = f as Partial<SchemaFinding> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    Array.isArray(o.path) &&
    o.path.every((p) => typeof p === 'string' || typeof p === 'number') &&
    typeof o.message === 'string' &&
    typeof o.drop === 'boolean'
  );
}

function writeFindings(file: string, key: string, findings: SchemaFinding[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, JSON.stringify({ key, findings }));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
