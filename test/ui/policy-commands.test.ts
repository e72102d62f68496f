/**
 * /permissions suggest (the allow rules `wicket rules suggest` would propose, from the project's
 * Claude Code session, one of them picked and saved) and /tools (the loaded tools' three answers).
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { projectSlug } from '../../src/session/paths.js';
import { readTool } from '../../src/tools/read/index.js';
import { writeTool } from '../../src/tools/write/index.js';
import { permissionsCommand } from '../../src/ui/commands/permissions.js';
import { toolsCommand } from '../../src/ui/commands/tools.js';
import type { CommandResult, SessionControl } from '../../src/ui/commands/types.js';
import { REPO_ROOT } from '../support/run-cli.js';
import { baseOptions, emptyLoaded, scriptedClient } from './helpers.js';

const ID = '7d3f2b9e-5a41-4c8e-9f0d-2b6e8a1c4d57';
let root: string;
let project: string;
let home: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-policy-cmd-')));
  project = path.join(root, 'p');
  home = path.join(root, 'home');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  const sessions = path.join(home, '.claude', 'projects', projectSlug(project));
  mkdirSync(sessions, { recursive: true });
  const text = readFileSync(path.join(REPO_ROOT, 'test/fixtures/sessions/policy', `${ID}.jsonl`), 'utf8').replaceAll('/tmp/sess-scratch/pf', project);
  writeFileSync(path.join(sessions, `${ID}.jsonl`), text);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function session(): SessionControl {
  const options = { ...baseOptions(scriptedClient([]), project, [readTool, writeTool]), homeDir: home, env: { HOME: home, PATH: process.env.PATH } };
  return {
    options,
    loaded: emptyLoaded(project),
    cwd: project,
    configDir: path.join(home, '.claude'),
    totals: {} as never,
    traces: [],
    commands: [],
    messageCount: 0,
  };
}

it('/permissions suggest lists the proposed rules with counts and riskiest call; the one picked is saved as an allow rule', async () => {
  const s = session();
  const r = (await permissionsCommand.run('suggest', s)) as Extract<CommandResult, { kind: 'pick' }>;
  expect(r.kind).toBe('pick');
  const build = r.options.find((o) => o.value.startsWith('Bash(npm run build'))!;
  expect(build.label).toContain('(2×)');
  expect(build.description).toBe('riskiest: npm run build -- --verbose');
  expect(r.options.some((o) => o.value.includes('rm'))).toBe(false);
  const added = (await r.pick(build.value)) as Extract<CommandResult, { kind: 'info' }>;
  expect(added.text).toContain(`Added allow rule ${build.value}`);
  const saved = JSON.parse(readFileSync(path.join(project, '.claude', 'settings.local.json'), 'utf8'));
  expect(saved.permissions.allow).toEqual([build.value]);
  expect(s.options.permission.rules.allow.map((x) => x.raw)).toEqual([build.value]);
});

it('/tools shows each loaded tool’s three answers in a scratch copy, and the project is untouched', async () => {
  writeFileSync(path.join(project, 'a.txt'), 'alpha\n');
  const r = (await toolsCommand.run('', session())) as Extract<CommandResult, { kind: 'info' }>;
  expect(r.text).toMatch(/^Read\s+nonsense\s+ok\s+\d+ of \d+ inputs refused/m);
  expect(r.text).toMatch(/^Read\s+beside\s+ok\s+read-only: .*same result as alone, nothing written/m);
  expect(r.text).toMatch(/^Write\s+beside\s+ok\s+writes: never batched/m);
  expect(r.text).toContain('2 tools checked: all answer the three questions.');
  expect(readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('alpha\n');
  const one = (await toolsCommand.run('Nope', session())) as Extract<CommandResult, { kind: 'info' }>;
  expect(one.tone).toBe('error');
});
