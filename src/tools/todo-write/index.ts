/**
 * TodoWrite: the model's own task list for the session, as in Claude Code (`todos: [{content,
 * status, activeForm}]`). Each call replaces the whole list; a list whose items are all completed is
 * cleared. It touches nothing outside the session, so it never asks.
 */
import type { Todo } from '../../base/todos.js';
import { defineTool, lazySchema, type ContextChange } from '../../base/tool.js';

export interface TodoWriteInput {
  todos: Todo[];
}

export interface TodoWriteOutput {
  oldTodos: Todo[];
  newTodos: Todo[];
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    todos: z
      .array(
        z.strictObject({
          content: z.string().min(1, 'content is empty'),
          status: z.enum(['pending', 'in_progress', 'completed']),
          activeForm: z.string().min(1, 'activeForm is empty'),
        }),
      )
      .describe('The updated todo list'),
  }),
);

const DESCRIPTION = `Use this tool to keep a structured task list for the current session: it helps you track progress on multi-step work and shows the user where you are.

Use it when:
- a task needs three or more distinct steps, or careful planning;
- the user gives several tasks at once (numbered or comma-separated);
- new requirements come up while you work: add them as tasks.

Do not use it for a single, simple task or a purely conversational request.

How:
- Each call sends the whole list; it replaces the previous one.
- Each item has "content" (imperative: "Run the tests") and "activeForm" (present continuous: "Running the tests").
- Keep exactly one item in_progress while you work; mark it in_progress before starting it.
- Mark an item completed as soon as it is done, not in batches. Only mark it completed when it is fully done: if tests fail or the work is partial, keep it in_progress and add what is blocking.
- Remove items that no longer apply.`;

export const todoWriteTool = defineTool<TodoWriteInput, TodoWriteOutput>({
  name: 'TodoWrite',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  // Calls replace the list: two at once would race for it.
  isConcurrencySafe: () => false,
  async checkPermissions() {
    return { behavior: 'allow', reason: 'the task list lives in the session only' };
  },
  // eslint-disable-next-line require-yield
  async *call(input, ctx) {
    return { oldTodos: [...(ctx.todos ?? [])], newTodos: input.todos };
  },
  toModelResult() {
    return {
      content: 'The todo list was updated. Keep using it to track your progress, and go on with the current task if there is one.',
    };
  },
  contextChange(output): ContextChange {
    const done = output.newTodos.length > 0 && output.newTodos.every((t) => t.status === 'completed');
    return (state) => {
      state.todos = done ? [] : output.newTodos;
    };
  },
  summary(input) {
    const n = input.todos.length;
    const finished = input.todos.filter((t) => t.status === 'completed').length;
    return `${n} task${n === 1 ? '' : 's'}, ${finished} done`;
  },
  display(output) {
    return { summary: `Updated the task list`, todos: output.newTodos };
  },
});
