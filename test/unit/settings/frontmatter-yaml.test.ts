/** The YAML of agent-file frontmatter (the yaml package), with the allowances for what people write. */
import { describe, expect, it } from 'vitest';
import { parseYamlBlock } from '../../../src/settings/frontmatter-yaml.js';

describe('frontmatter YAML', () => {
  it('reads scalars: plain (typed), quoted with escapes, and comments', () => {
    const { data, problems } = parseYamlBlock(
      'name: rev\ndescription: "Reviews \\"code\\""  # a comment\nmaxTurns: 5\nbackground: true\nnothing:\nquote: \'it\'\'s\'\nissue: fix #12 now',
    );
    expect(data).toEqual({ name: 'rev', description: 'Reviews "code"', maxTurns: 5, background: true, nothing: null, quote: "it's", issue: 'fix' });
    expect(problems).toEqual([]);
  });

  it('keeps a plain value whole, colons and all, and folds lines that continue it', () => {
    expect(parseYamlBlock('description: Use it when: the tests fail\n  or the build breaks\nname: x').data).toEqual({
      description: 'Use it when: the tests fail or the build breaks',
      name: 'x',
    });
  });

  it('reads lists: flow, block (indented or at the key’s column), with names holding colons and parentheses', () => {
    const { data } = parseYamlBlock('tools: [Read, "Glob", Bash(git diff:*)]\nskills:\n- a\n- b\ndisallowedTools:\n  - Bash\n  - mcp__github');
    expect(data).toEqual({ tools: ['Read', 'Glob', 'Bash(git diff:*)'], skills: ['a', 'b'], disallowedTools: ['Bash', 'mcp__github'] });
  });

  it('reads nested maps in lists, as mcpServers and hooks are written', () => {
    const block = [
      'mcpServers:',
      '  # defined here',
      '  - playwright:',
      '      type: stdio',
      '      command: npx',
      '      args: ["-y", "@playwright/mcp@latest"]',
      '  - github',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: "Bash"',
      '      hooks:',
      '        - type: command',
      '          command: "./check.sh # not a comment"',
      '  Stop:',
      '    - hooks: [{type: command, command: echo done}]',
    ].join('\n');
    expect(parseYamlBlock(block)).toEqual({
      data: {
        mcpServers: [{ playwright: { type: 'stdio', command: 'npx', args: ['-y', '@playwright/mcp@latest'] } }, 'github'],
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh # not a comment' }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }],
        },
      },
      problems: [],
    });
  });

  it('reads block scalars: literal keeps lines, folded joins them; - drops the last newline', () => {
    const { data } = parseYamlBlock('a: |\n  one\n  two: 2\n\n  three\nb: >-\n  folded\n  text\nc: x');
    expect(data).toEqual({ a: 'one\ntwo: 2\n\nthree\n', b: 'folded text', c: 'x' });
  });

  it('never throws: an unreadable line or value is a problem naming its line, and the rest is kept', () => {
    const { data, problems } = parseYamlBlock('name: x\njust words\n  under them\ntools: [Read, Grep\ncolor: red');
    expect(data).toEqual({ name: 'x', color: 'red' });
    expect(problems).toEqual([
      'line 2: expected "key: value", found "just words"; line ignored',
      'line 4: Flow sequence in block collection must be sufficiently indented and end with a ]; ignored',
    ]);
    expect(parseYamlBlock('- a\n- b')).toEqual({ data: {}, problems: ['line 1: the frontmatter must be a set of "key: value" lines'] });
    expect(parseYamlBlock('')).toEqual({ data: {}, problems: [] });
  });
});
