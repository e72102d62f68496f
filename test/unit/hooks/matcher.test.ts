import { afterAll, describe, expect, it } from 'vitest';
import { ifRuleMatches, matcherMatches } from '../../../src/hooks/matcher.js';
import { readTool } from '../../../src/tools/read/index.js';
import { fakeBash, makeWorld, permissionContext } from '../permissions/world.js';

describe('hook matchers', () => {
  it.each([
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'mcp__x__y', true],
    ['Bash', 'Bash', true],
    ['Bash', 'BashOutput', false],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'NotebookEdit', false],
    ['Edit, Write', 'Write', true],
    ['Edit.*', 'NotebookEdit', true],
    ['^Notebook', 'NotebookEdit', true],
    ['^Notebook', 'Edit', false],
    ['mcp__memory__.*', 'mcp__memory__create', true],
    ['mcp__memory__.*', 'mcp__github__get', false],
    ['startup|resume', 'resume', true],
    ['startup|resume', 'compact', false],
    ['Bash(', 'Bash', false],
  ])('%s vs %s → %s', (matcher, value, expected) => {
    expect(matcherMatches(matcher, value)).toBe(expected);
  });
});

describe('handler `if` rules', () => {
  const w = makeWorld();
  const pctx = permissionContext(w, 'default');
  afterAll(() => w.cleanup());

  it('a bare tool name checks the tool only', () => {
    expect(ifRuleMatches('Bash', { toolName: 'Bash', toolInput: { command: 'ls' } }, undefined, undefined)).toBe(true);
    expect(ifRuleMatches('Bash', { toolName: 'Read', toolInput: {} }, undefined, undefined)).toBe(false);
  });

  it('a command specifier uses the tool’s own matcher', () => {
    expect(ifRuleMatches('Bash(git *)', { toolName: 'Bash', toolInput: { command: 'git push' } }, fakeBash, pctx)).toBe(true);
    expect(ifRuleMatches('Bash(git *)', { toolName: 'Bash', toolInput: { command: 'npm test' } }, fakeBash, pctx)).toBe(false);
  });

  it('a path specifier uses the path rules', () => {
    const input = (p: string) => ({ toolName: 'Read', toolInput: { file_path: `${w.project}/${p}` } });
    expect(ifRuleMatches('Read(./.env)', input('.env'), readTool, pctx)).toBe(true);
    expect(ifRuleMatches('Read(./.env)', input('README.md'), readTool, pctx)).toBe(false);
  });

  it('without the tool, or with a broken rule, the hook runs (the safe side)', () => {
    expect(ifRuleMatches('Bash(git *)', { toolName: 'Bash', toolInput: { command: 'npm test' } }, undefined, undefined)).toBe(true);
    expect(ifRuleMatches('Bash(git', { toolName: 'Bash', toolInput: {} }, fakeBash, pctx)).toBe(true);
  });
});
