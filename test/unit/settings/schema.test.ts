/**
 * Settings checked against Claude Code's published schema (vendor/schemastore/): the committed
 * validator is the one the vendored copy makes, every key it documents is known, a wrong value is
 * named by its JSON path, and a key a newer copy adds is checked with no code of wicket's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanSchema, NAMES_FILE, namesSource, SCHEMA_FILE, VALIDATOR_FILE, validatorSource } from '../../../scripts/settings-schema.mjs';
import { knownSettingsKeys, schemaFindings } from '../../../src/settings/schema.js';
import { load, makeDirs, writeJson, type Dirs } from './helpers.js';

const FULL = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { properties: Record<string, unknown> };

describe('the vendored schema and its validator', () => {
  it('the committed validator is the one the vendored schema makes', () => {
    expect(readFileSync(VALIDATOR_FILE, 'utf8')).toBe(validatorSource(FULL));
    expect(readFileSync(NAMES_FILE, 'utf8')).toBe(namesSource(FULL));
  });

  it('the vendored copy comes with its licence and where it came from', () => {
    const dir = path.dirname(SCHEMA_FILE);
    expect(readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toMatch(/Pinned at commit `[0-9a-f]{40}`/);
  });

  it('knows every key the schema documents', () => {
    const known = knownSettingsKeys();
    expect(Object.keys(FULL.properties).filter((k) => !known.has(k))).toEqual([]);
    expect(known.size).toBeGreaterThan(120);
  });

  it('a key a newer schema adds is checked without code: its wrong type is reported', async () => {
    const newer = structuredClone(FULL) as { properties: Record<string, unknown> };
    newer.properties.someNewSwitch = { type: 'boolean', description: 'added later' };
    const dir = mkdtempSync(path.join(path.dirname(VALIDATOR_FILE), '.tmp-'));
    try {
      const file = path.join(dir, 'validator.js');
      writeFileSync(file, validatorSource(newer));
      const mod = (await import(pathToFileURL(file).href)) as {
        BY_KEY: Record<string, ((d: unknown) => boolean) & { errors?: { keyword: string }[] }>;
        KNOWN_KEYS: string[];
      };
      expect(mod.KNOWN_KEYS).toContain('someNewSwitch');
      const check = mod.BY_KEY.someNewSwitch!;
      expect(check('yes')).toBe(false);
      expect(check.errors?.map((e) => e.keyword)).toEqual(['type']);
      expect(check(true)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the lean form keeps every key and drops the prose', () => {
    const lean = leanSchema(FULL) as { properties: Record<string, unknown> };
    expect(Object.keys(lean.properties)).toEqual(Object.keys(FULL.properties));
    expect(JSON.stringify(lean)).not.toContain('"description"');
  });
});

describe('schemaFindings', () => {
  it('names a nested value of the wrong type by its JSON path', () => {
    const found = schemaFindings({ sandbox: { network: { httpProxyPort: 'x' } } });
    expect(found).toEqual([
      { path: ['sandbox', 'network', 'httpProxyPort'], message: 'sandbox.network.httpProxyPort must be an integer, found a string ("x")', drop: false },
    ]);
  });

  it('a top-level key of the wrong type is dropped; a wrong value of the right type only warned', () => {
    expect(schemaFindings({ model: 5 })).toEqual([{ path: ['model'], message: '"model" must be a string, found a number (5)', drop: true }]);
    expect(schemaFindings({ effortLevel: 'extreme' })[0]).toMatchObject({
      drop: false,
      message: expect.stringContaining('"effortLevel" must be one of "low"'),
    });
  });

  it('an anyOf that fails is one finding, not one per branch', () => {
    expect(schemaFindings({ theme: 'purple' })).toHaveLength(1);
    expect(schemaFindings({ theme: 'custom:mine' })).toEqual([]);
  });

  it('list entries are named with their index', () => {
    const [f] = schemaFindings({ sandbox: { filesystem: { allowWrite: ['/tmp', 3] } } });
    expect(f?.message).toBe('sandbox.filesystem.allowWrite[1] must be a string, found a number (3)');
  });

  it('the older single-model fallbackModel is accepted; a list is too', () => {
    expect(schemaFindings({ fallbackModel: 'haiku' })).toEqual([]);
    expect(schemaFindings({ fallbackModel: ['haiku'] })).toEqual([]);
  });

  it('hooks, env and rule strings are left to their own readers', () => {
    expect(schemaFindings({ hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] }, env: { lower_case: 1 }, permissions: { allow: [5] } })).toEqual([]);
  });
});

describe('a settings file with schema problems', () => {
  let d: Dirs;
  beforeAll(() => {
    d = makeDirs();
  });
  afterAll(() => d.cleanup());

  it('loads, with one warning per problem naming the file and the place', () => {
    writeJson(d.projectFile, { model: { name: 'x' }, sandbox: { network: { httpProxyPort: 'x' } }, outputStyle: 'Explanatory', madeUpKey: true });
    const l = load(d);
    expect(l.errors).toEqual([]);
    expect(l.merged.model).toBeUndefined();
    expect(l.merged.outputStyle).toBe('Explanatory');
    expect(l.warnings).toEqual([
      `${d.projectFile}: unknown key "madeUpKey" (not a Claude Code setting); ignored`,
      `${d.projectFile}: "model" must be a string, found an object; ignored`,
      `${d.projectFile}: sandbox.network.httpProxyPort must be an integer, found a string ("x")`,
    ]);
  });
});
