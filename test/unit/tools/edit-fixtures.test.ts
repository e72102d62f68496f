/**
 * Table-driven Edit scenarios: each test/fixtures/edit/NNN_name holds `input/` (the project before),
 * `call.json` (one Edit input or a list of them, with paths relative to the project) and
 * `expected/` (the project after; missing means "unchanged"). Each file is Read before its Edit
 * unless the call says `"read": false`; `"expect_error"` is a substring of the expected refusal.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { editTool } from '../../../src/tools/edit/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import { createToolEnv, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/edit');

interface FixtureCall {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
  read?: boolean;
  expect_error?: string;
}

/** Every file under `dir` (relative path → bytes), ignoring .gitkeep placeholders. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!existsSync(dir)) return out;
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = path.join(rel, name);
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else if (name !== '.gitkeep') out.set(r, readFileSync(path.join(dir, r)));
    }
  };
  walk('');
  return out;
}

const scenarios = readdirSync(FIXTURES)
  .filter((n) => /^\d{3}_/.test(n))
  .sort();

let env: ToolEnv | undefined;
afterEach(() => env?.cleanup());

describe('Edit fixtures', () => {
  it('has scenarios', () => expect(scenarios.length).toBeGreaterThanOrEqual(20));

  it.each(scenarios)('%s', async (name) => {
    const dir = path.join(FIXTURES, name);
    env = createToolEnv();
    const input = path.join(dir, 'input');
    if (existsSync(input)) cpSync(input, env.project, { recursive: true, filter: (src) => path.basename(src) !== '.gitkeep' });
    const raw = JSON.parse(readFileSync(path.join(dir, 'call.json'), 'utf8')) as FixtureCall | FixtureCall[];
    for (const call of Array.isArray(raw) ? raw : [raw]) {
      const { read, expect_error, ...editInput } = call;
      const abs = env.file(editInput.file_path);
      if (read !== false && existsSync(abs)) await runTool(readTool, { file_path: abs }, env.nextCall(), env.state);
      const result = await tryRunTool(editTool, { ...editInput, file_path: abs }, env.nextCall(), env.state);
      if (expect_error) {
        expect(result.ok, `${name} should be refused`).toBe(false);
        if (!result.ok) expect(result.message).toContain(expect_error);
      } else if (!result.ok) {
        throw new Error(`${name} was refused at ${result.stage}: ${result.message}`);
      }
    }
    const expectedDir = existsSync(path.join(dir, 'expected')) ? path.join(dir, 'expected') : input;
    const want = tree(expectedDir);
    const got = tree(env.project);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [rel, bytes] of want) expect(got.get(rel)?.toString('hex'), `${name}: ${rel}`).toBe(bytes.toString('hex'));
  });
});
