import { render } from 'ink-testing-library';
import React from 'react';
import { describe, expect, it } from 'vitest';
import type { GateTrace } from '../../src/base/events.js';
import { FinishedToolView, LiveToolView, displayName } from '../../src/ui/tool-views/index.js';
import type { FinishedTool, LiveTool } from '../../src/ui/types.js';
import { ViewContext } from '../../src/ui/view-context.js';
import { makeTheme } from '../../src/ui/theme.js';

const passed: GateTrace = [
  { gate: 'find', verdict: 'passed', durationMs: 0 },
  { gate: 'permission', verdict: 'allowed', durationMs: 1, detail: 'allow rule Read' },
  { gate: 'execute', verdict: 'passed', durationMs: 3 },
];

function tool(over: Partial<FinishedTool>): FinishedTool {
  return { toolUseId: 't1', name: 'Read', input: {}, summary: '', result: { content: 'ok' }, trace: passed, durationMs: 3, ...over };
}

function show(node: React.ReactElement): string {
  const info = { columns: 80, rows: 24, cwd: '/proj', theme: makeTheme({ NO_COLOR: '1' }) };
  return render(<ViewContext.Provider value={info}>{node}</ViewContext.Provider>).lastFrame() ?? '';
}

describe('tool renderers', () => {
  it('Agent: a sub-agent type with a color in its definition shows in that color (none with NO_COLOR)', () => {
    const call = tool({
      name: 'Agent',
      input: { subagent_type: 'reviewer', description: 'check it', prompt: 'p' },
      display: { summary: 'Done (0 tool calls)' },
    });
    const info = { columns: 80, rows: 24, cwd: '/proj', theme: makeTheme({}), agentColors: { reviewer: 'purple' } };
    expect(render(<ViewContext.Provider value={info}>{<FinishedToolView tool={call} />}</ViewContext.Provider>).lastFrame()).toContain(
      '● Agent(reviewer: check it)',
    );
    expect(makeTheme({}).agentColor('purple')).toBe('magenta');
    expect(makeTheme({}).agentColor('orange')).toMatch(/^#/);
    expect(makeTheme({ NO_COLOR: '1' }).agentColor('purple')).toBeUndefined();
    expect(makeTheme({}).agentColor(undefined)).toBeUndefined();
  });

  it('Read: the file relative to the project and how much was read', () => {
    expect(
      show(
        <FinishedToolView
          tool={tool({ input: { file_path: '/proj/src/a.ts', offset: 10, limit: 20 }, display: { summary: 'Read src/a.ts (lines 10-29 of 300)' } })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● Read(src/a.ts · lines 10-29)
        ⎿  Read src/a.ts (lines 10-29 of 300)"
    `);
  });

  it('Edit: a colored diff with line numbers', () => {
    const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,3 +3,3 @@\n keep\n-old\n+new\n keep2\n';
    expect(
      show(
        <FinishedToolView
          tool={tool({
            name: 'Edit',
            input: { file_path: '/proj/src/a.ts', old_string: 'old', new_string: 'new' },
            display: { summary: 'Updated src/a.ts: +1 -1', diff },
          })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● Edit(src/a.ts)
        ⎿  Updated src/a.ts: +1 -1
           3   keep
           4 - old
           4 + new
           5   keep2"
    `);
  });

  it('Bash: the command and the tail of its output', () => {
    const out = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(show(<FinishedToolView tool={tool({ name: 'Bash', input: { command: 'npm test' }, result: { content: out } })} />)).toMatchInlineSnapshot(`
      "● Bash(npm test)
        ⎿  … 4 earlier lines
           line 5
           line 6
           line 7
           line 8
           line 9
           line 10
           line 11
           line 12"
    `);
  });

  it('Grep and Glob: the pattern and the counts', () => {
    expect(
      show(
        <FinishedToolView
          tool={tool({ name: 'Grep', input: { pattern: 'TODO', path: '/proj/src', glob: '*.ts' }, display: { summary: 'Found 7 matches in 3 files' } })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● Grep("TODO" · in src · glob *.ts)
        ⎿  Found 7 matches in 3 files"
    `);
    expect(
      show(
        <FinishedToolView
          tool={tool({ name: 'Glob', input: { pattern: '**/*.md' }, result: { content: 'a.md\nb.md' }, display: { summary: 'Found 2 files' } })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● Glob(**/*.md)
        ⎿  Found 2 files"
    `);
  });

  it('a refused call says which gate refused and why', () => {
    const trace: GateTrace = [
      { gate: 'find', verdict: 'passed', durationMs: 0 },
      { gate: 'permission', verdict: 'denied', durationMs: 0, detail: 'deny rule Bash(rm *) [projectSettings]' },
    ];
    expect(
      show(
        <FinishedToolView
          tool={tool({
            name: 'Bash',
            input: { command: 'rm -rf build' },
            result: { content: 'Permission to use Bash with rm -rf build was denied by the rule Bash(rm *).', isError: true },
            trace,
          })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● Bash(rm -rf build)
        ⎿  permission denied: deny rule Bash(rm *) [projectSettings]
           Permission to use Bash with rm -rf build was denied by the rule Bash(rm *)."
    `);
  });

  it('an interrupted call says so', () => {
    const trace: GateTrace = [{ gate: 'execute', verdict: 'aborted', durationMs: 10, detail: 'interrupted by the user' }];
    expect(
      show(<FinishedToolView tool={tool({ name: 'Bash', input: { command: 'sleep 100' }, result: { content: 'Interrupted', isError: true }, trace })} />),
    ).toMatchInlineSnapshot(`
      "● Bash(sleep 100)
        ⎿  Interrupted"
    `);
  });

  it('unknown and MCP tools get the generic view', () => {
    expect(displayName('mcp__github__create_issue')).toBe('github · create_issue (MCP)');
    expect(
      show(
        <FinishedToolView
          tool={tool({
            name: 'mcp__github__create_issue',
            input: { title: 'Bug', body: 'x' },
            result: { content: 'Created issue #12\nhttps://example.test/12' },
          })}
        />,
      ),
    ).toMatchInlineSnapshot(`
      "● github · create_issue (MCP)(title: Bug, body: x)
        ⎿  Created issue #12
           https://example.test/12"
    `);
  });

  it('a running call shows its output tail, or that it waits for an answer', () => {
    const live: LiveTool = {
      toolUseId: 't',
      name: 'Bash',
      input: { command: 'make' },
      summary: 'make',
      startedAt: 0,
      tail: ['cc a.c', 'cc b.c'],
      waiting: false,
    };
    expect(show(<LiveToolView tool={live} />)).toMatchInlineSnapshot(`
      "● Bash(make)
           cc a.c
           cc b.c"
    `);
    expect(show(<LiveToolView tool={{ ...live, tail: [], waiting: true }} />)).toMatchInlineSnapshot(`
      "● Bash(make)
        ⎿  Waiting for your answer…"
    `);
  });
});
