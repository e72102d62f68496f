/** TodoWrite: the model's task list, replaced whole by each call and kept in the session. */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { decidePermission } from '../../../src/permissions/decide.js';
import { BUILTIN_TOOLS, findTool } from '../../../src/tools/registry.js';
import { todoWriteTool } from '../../../src/tools/todo-write/index.js';
import type { Todo } from '../../../src/base/todos.js';
import { makeTheme } from '../../../src/ui/theme.js';
import { FinishedToolView } from '../../../src/ui/tool-views/index.js';
import { ViewContext } from '../../../src/ui/view-context.js';
import { createToolEnv, resultText, runTool, tryRunTool } from '../../support/tool-context.js';

const todo = (content: string, status: Todo['status']): Todo => ({ content, status, activeForm: `${content}ing` });

describe('TodoWrite', () => {
  it('is a built-in tool', () => {
    expect(findTool(BUILTIN_TOOLS, 'TodoWrite')).toBe(todoWriteTool);
  });

  it('replaces the session’s list, hands the old one back, and tells the model to go on', async () => {
    const env = createToolEnv();
    const first = await runTool(todoWriteTool, { todos: [todo('Read', 'in_progress'), todo('Fix', 'pending')] }, env.nextCall(), env.state);
    expect(first.output.oldTodos).toEqual([]);
    expect(env.state.todos).toEqual([todo('Read', 'in_progress'), todo('Fix', 'pending')]);
    expect(resultText(first.modelResult)).toContain('The todo list was updated');
    const second = await runTool(
      todoWriteTool,
      { todos: [todo('Read', 'completed'), todo('Fix', 'in_progress')] },
      env.nextCall({ todos: env.state.todos }),
      env.state,
    );
    expect(second.output.oldTodos).toEqual([todo('Read', 'in_progress'), todo('Fix', 'pending')]);
    expect(env.state.todos?.map((t) => t.status)).toEqual(['completed', 'in_progress']);
  });

  it('clears the list once every item is completed', async () => {
    const env = createToolEnv();
    await runTool(todoWriteTool, { todos: [todo('Read', 'completed'), todo('Fix', 'completed')] }, env.nextCall(), env.state);
    expect(env.state.todos).toEqual([]);
  });

  it('takes Claude Code’s parameters, strictly', async () => {
    const env = createToolEnv();
    const bad = await tryRunTool(todoWriteTool, { todos: [{ content: 'x', status: 'doing', activeForm: 'x' }] }, env.nextCall());
    expect(bad).toMatchObject({ ok: false, stage: 'parse' });
    const missing = await tryRunTool(todoWriteTool, { todos: [{ content: 'x', status: 'pending' }] }, env.nextCall());
    expect(missing).toMatchObject({ ok: false, stage: 'parse' });
    const extra = await tryRunTool(todoWriteTool, { todos: [], priority: 'high' }, env.nextCall());
    expect(extra).toMatchObject({ ok: false, stage: 'parse' });
  });

  it('never asks, in any mode', async () => {
    const env = createToolEnv();
    for (const mode of ['default', 'plan', 'dontAsk'] as const) {
      const d = await decidePermission({ tool: todoWriteTool, input: { todos: [] }, ctx: env.nextCall(), rules: { allow: [], ask: [], deny: [] }, mode });
      expect(d.behavior).toBe('allow');
    }
  });

  it('shows as a checklist in the app', () => {
    const todos = [todo('Read the code', 'completed'), todo('Fix the bug', 'in_progress'), todo('Run the tests', 'pending')];
    const info = { columns: 80, rows: 24, cwd: '/p', theme: makeTheme({ NO_COLOR: '1' }) };
    const frame = render(
      <ViewContext.Provider value={info}>
        <FinishedToolView
          tool={{
            toolUseId: 't',
            name: 'TodoWrite',
            input: { todos },
            summary: '',
            result: { content: 'ok' },
            display: { summary: 'Updated the task list', todos },
            trace: [],
            durationMs: 0,
          }}
        />
      </ViewContext.Provider>,
    ).lastFrame();
    expect(frame).toContain('● TodoWrite');
    expect(frame).toContain('⎿  ☒ Read the code');
    expect(frame).toContain('◼ Fix the bug');
    expect(frame).toContain('☐ Run the tests');
  });
});
