/**
 * Bash through the permission engine: the table in test/fixtures/bash-rules.ts, then checks that a
 * denied command's effect really is absent when the runner obeys the decision.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidePermission } from '../../../src/permissions/decide.js';
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import type { PermissionDecision, PermissionRules } from '../../../src/base/permission-types.js';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import type { ToolContext } from '../../../src/base/tool.js';
import { BASH_RULE_CASES, type BashRuleCase } from '../../fixtures/bash-rules.js';
import { createToolEnv, runTool, type ToolEnv } from '../../support/tool-context.js';

let env: ToolEnv;
beforeAll(async () => {
  await initBashParser();
  env = createToolEnv({ env: { PATH: process.env.PATH } });
  mkdirSync(env.file('src'));
  mkdirSync(env.file('.git/hooks'), { recursive: true });
});
afterAll(() => env.cleanup());

function rulesOf(c: Pick<BashRuleCase, 'allow' | 'ask' | 'deny' | 'settingsDeny'>): PermissionRules {
  const parse = (xs: string[] = []) => xs.map((r) => parseRule(r, 'projectSettings'));
  return { allow: parse(c.allow), ask: parse(c.ask), deny: parse([...(c.deny ?? []), ...(c.settingsDeny ?? [])]) };
}

function contextFor(c: Pick<BashRuleCase, 'settingsDeny' | 'mode'>): ToolContext {
  return env.nextCall({
    permissionMode: c.mode ?? 'default',
    settings: c.settingsDeny ? { permissions: { deny: c.settingsDeny } } : {},
  });
}

async function decide(c: BashRuleCase): Promise<PermissionDecision> {
  const input = bashTool.inputSchema.parse({
    command: c.command,
    ...(c.dangerouslyDisableSandbox ? { dangerouslyDisableSandbox: true } : {}),
  });
  return decidePermission({ tool: bashTool, input, ctx: contextFor(c), rules: rulesOf(c), mode: c.mode ?? 'default' });
}

describe('Bash permission table', () => {
  it('has at least 150 cases, half of them attempts to slip past the rules', () => {
    expect(BASH_RULE_CASES.length).toBeGreaterThanOrEqual(150);
    expect(BASH_RULE_CASES.filter((c) => c.slip).length * 2).toBeGreaterThanOrEqual(BASH_RULE_CASES.length);
  });

  const label = (c: BashRuleCase): string => {
    const rules = [...(c.allow ?? []).map((r) => `allow ${r}`), ...(c.ask ?? []).map((r) => `ask ${r}`), ...(c.deny ?? []).map((r) => `deny ${r}`)];
    const command = c.command.length > 100 ? `${c.command.slice(0, 60)}… (${c.command.length} chars)` : c.command;
    return `${JSON.stringify(command)} [${[c.mode ?? 'default', ...rules].join(', ')}] → ${c.expect}`;
  };

  it.each(BASH_RULE_CASES.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    const d = await decide(c);
    expect(d.behavior, `${d.by}${'reason' in d ? `: ${d.reason}` : ''}`).toBe(c.expect);
  });
});

describe('suggestions', () => {
  it('offers the narrowest prefix rule for "don\'t ask again"', async () => {
    const d = await decide({ command: 'npm run test:unit -- --watch', expect: 'ask' });
    expect(d).toMatchObject({ behavior: 'ask', suggestions: ['Bash(npm run test:unit:*)'] });
    const git = await decide({ command: 'git commit -m "wip" && git push origin main', expect: 'ask' });
    expect(git).toMatchObject({ suggestions: ['Bash(git commit:*)', 'Bash(git push:*)'] });
  });

  it('suggests the exact command for destructive ones and nothing for code runners', async () => {
    expect(await decide({ command: 'rm -rf build', expect: 'ask' })).toMatchObject({ suggestions: ['Bash(rm -rf build)'] });
    expect(await decide({ command: 'bash -c "make"', expect: 'ask' })).toMatchObject({ suggestions: [] });
    expect(await decide({ command: 'python3 -c "print(1)"', expect: 'ask' })).toMatchObject({ suggestions: [] });
  });

  it('a suggested rule, once added, allows the command', async () => {
    const command = 'cargo test --release -- --nocapture';
    const d = await decide({ command, expect: 'ask' });
    if (d.behavior !== 'ask') throw new Error('expected ask');
    expect(d.suggestions).toEqual(['Bash(cargo test:*)']);
    expect((await decide({ command, allow: d.suggestions, expect: 'allow' })).behavior).toBe('allow');
  });
});

describe('a denied command does not run', () => {
  /** The runner's part: decide, and run only on allow. */
  async function obey(command: string, rules: Pick<BashRuleCase, 'allow' | 'ask' | 'deny'>, mode: PermissionMode): Promise<PermissionDecision> {
    const c: BashRuleCase = { command, ...rules, mode, expect: 'deny' };
    const d = await decide(c);
    if (d.behavior === 'allow') await runTool(bashTool, { command }, contextFor(c), env.state);
    return d;
  }

  const attempts = [
    "bash -c 'rm victim'",
    'echo rm victim | sh',
    "r''m victim",
    'timeout 5 /bin/rm victim',
    'X=rm; $X victim',
    'find . -name victim -exec rm {} \\;',
  ];
  for (const command of attempts) {
    it(`bypass mode, deny Bash(rm:*): ${JSON.stringify(command)} leaves the file in place`, async () => {
      writeFileSync(env.file('victim'), 'still here');
      const d = await obey(command, { deny: ['Bash(rm:*)'] }, 'bypassPermissions');
      expect(d.behavior).toBe('deny');
      expect(existsSync(env.file('victim'))).toBe(true);
    });
  }

  it('the same command runs when nothing denies it (the check is real)', async () => {
    writeFileSync(env.file('victim'), 'going');
    const d = await obey("bash -c 'rm victim'", {}, 'bypassPermissions');
    expect(d.behavior).toBe('allow');
    expect(existsSync(env.file('victim'))).toBe(false);
  });
});
