import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ElicitationAnswer, ElicitationRequest } from '../../src/mcp/elicitation.js';
import { ElicitationDialog } from '../../src/ui/ElicitationDialog.js';
import { makeTheme } from '../../src/ui/theme.js';
import { ViewContext } from '../../src/ui/view-context.js';
import { keys, tick, waitFor } from './helpers.js';

const form: ElicitationRequest = {
  server: 'forms',
  mode: 'form',
  message: 'Please tell us about yourself',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2 },
      age: { type: 'integer', title: 'Age', minimum: 0 },
      color: { type: 'string', title: 'Colour', enum: ['red', 'green'], default: 'green' },
      tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b', 'c'] } },
      ok: { type: 'boolean', title: 'OK' },
    },
    required: ['name'],
  },
};

function open(request: ElicitationRequest) {
  const onAnswer = vi.fn<(a: ElicitationAnswer) => void>();
  const info = { columns: 90, rows: 30, cwd: '/', theme: makeTheme({ NO_COLOR: '1' }) };
  const r = render(
    <ViewContext.Provider value={info}>
      <ElicitationDialog request={request} onAnswer={onAnswer} />
    </ViewContext.Provider>,
  );
  return { ...r, onAnswer };
}

async function press(stdin: { write(s: string): void }, ...inputs: string[]) {
  for (const s of inputs) {
    stdin.write(s);
    await tick();
  }
}

describe('ElicitationDialog', () => {
  it('edits, checks and sends a form', async () => {
    const { stdin, lastFrame, onAnswer } = open(form);
    await tick();
    expect(lastFrame()).toContain('MCP server "forms" requests your input');
    await press(stdin, 'Adx', keys.backspace, keys.down, '4', '2', keys.down, keys.right, keys.down, keys.right, ' ', keys.down, ' ', keys.down, keys.enter);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith({ action: 'accept', content: { name: 'Ad', age: 42, color: 'red', tags: ['b'], ok: true } }));
  });

  it('shows the problems and sends nothing until they are fixed', async () => {
    const { stdin, lastFrame, onAnswer } = open(form);
    await tick();
    await press(stdin, 'A', keys.down, '-1', keys.down, keys.down, keys.down, keys.down, keys.enter);
    expect(onAnswer).not.toHaveBeenCalled();
    expect(lastFrame()).toContain('Name needs at least 2 characters');
    expect(lastFrame()).toContain('Age must be at least 0');
    expect(lastFrame()).toMatch(/❯ Name\*: A█/);
    await press(stdin, 'da', keys.down, keys.backspace, keys.backspace, keys.down, keys.down, keys.down, keys.down, keys.enter);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith({ action: 'accept', content: { name: 'Ada', color: 'green', ok: false } }));
  });

  it('Esc cancels; Decline declines', async () => {
    const a = open(form);
    await tick();
    await press(a.stdin, keys.esc);
    await waitFor(() => expect(a.onAnswer).toHaveBeenCalledWith({ action: 'cancel' }));
    const b = open({ server: 'forms', mode: 'form', message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
    await tick();
    await press(b.stdin, keys.right, keys.enter);
    await waitFor(() => expect(b.onAnswer).toHaveBeenCalledWith({ action: 'decline' }));
  });

  it('URL mode shows the URL and accepts with Open URL', async () => {
    const { stdin, lastFrame, onAnswer } = open({ server: 'forms', mode: 'url', message: 'Connect', url: 'https://example.com/x', elicitationId: 'e1' });
    await tick();
    expect(lastFrame()).toContain('asks you to open a URL');
    expect(lastFrame()).toContain('https://example.com/x');
    expect(lastFrame()).toMatch(/❯ Open URL/);
    await press(stdin, keys.enter);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith({ action: 'accept' }));
  });
});
