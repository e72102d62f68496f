import { describe, expect, it } from 'vitest';
import { isPlainMatcher, matcherProblem, parseHooksConfig } from '../../../src/settings/hooks.js';

const parse = (hooks: unknown) => parseHooksConfig(hooks, 'projectSettings', '/p/.claude/settings.json', 'settings.json');

describe('hook configuration', () => {
  it('reads event → matcher groups → command handlers, with every known field', () => {
    const { groups, warnings } = parse({
      PreToolUse: [
        {
          matcher: 'Edit|Write',
          hooks: [
            { type: 'command', command: './fmt.sh', timeout: 30, async: true, shell: 'bash', if: 'Edit(src/**)', statusMessage: 'Formatting', once: true },
            { type: 'command', command: 'node', args: ['hook.js', '--fast'] },
          ],
        },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
    });
    expect(warnings).toEqual([]);
    expect(groups).toEqual([
      {
        event: 'PreToolUse',
        matcher: 'Edit|Write',
        source: 'projectSettings',
        sourcePath: '/p/.claude/settings.json',
        hooks: [
          { type: 'command', command: './fmt.sh', timeout: 30, async: true, shell: 'bash', if: 'Edit(src/**)', statusMessage: 'Formatting', once: true },
          { type: 'command', command: 'node', args: ['hook.js', '--fast'] },
        ],
      },
      { event: 'Stop', source: 'projectSettings', sourcePath: '/p/.claude/settings.json', hooks: [{ type: 'command', command: 'notify-send done' }] },
    ]);
  });

  it('a handler without type is taken as a command, with a warning', () => {
    const { groups, warnings } = parse({ Stop: [{ hooks: [{ command: 'x' }] }] });
    expect(groups[0]?.hooks[0]).toEqual({ type: 'command', command: 'x' });
    expect(warnings).toEqual([expect.stringContaining('"type" is missing; treated as "command"')]);
  });

  it('bad timeouts fall back to the default with a warning', () => {
    const { groups, warnings } = parse({
      Stop: [
        {
          hooks: [
            { type: 'command', command: 'x', timeout: 'ten' },
            { type: 'command', command: 'y', timeout: -1 },
          ],
        },
      ],
    });
    expect(groups[0]?.hooks.map((h) => h.timeout)).toEqual([undefined, undefined]);
    expect(warnings).toHaveLength(2);
  });

  it('keeps the good groups of an event with a bad one', () => {
    const { groups, warnings } = parse({
      PostToolUse: [null, 'x', { matcher: 5, hooks: [] }, { matcher: 'Bash', hooks: [{ type: 'command', command: 'ok' }] }],
    });
    expect(groups.map((g) => g.matcher)).toEqual(['Bash']);
    expect(warnings).toHaveLength(3);
  });

  it('matchers: names and separators are exact, anything else must be a valid regex', () => {
    expect(isPlainMatcher('Edit|Write')).toBe(true);
    expect(isPlainMatcher('Read, Grep')).toBe(true);
    expect(isPlainMatcher('mcp__.*')).toBe(false);
    expect(matcherProblem('*')).toBeUndefined();
    expect(matcherProblem('^Notebook')).toBeUndefined();
    expect(matcherProblem('(')).toMatch(/Invalid regular expression/);
  });
});
