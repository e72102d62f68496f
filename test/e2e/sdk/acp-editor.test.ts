// Zed's ACP adapter drives the built wicket as its Claude Code executable; the test is the editor,
// a real ACP client over the adapter's stdio. Asserted on what the editor saw, the files, and what
// the fake API received.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type Editor, startEditor } from '../../support/acp-harness.js';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { alive, waitUntil } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'notes.txt': 'alpha\nbeta\n', 'victim.txt': 'keep me\n' } });
let editors: Editor[] = [];
afterEach(async () => {
  await Promise.all(editors.map((e) => e.close()));
  editors = [];
});

async function editor(...args: Parameters<typeof startEditor> extends [unknown, ...infer R] ? R : never): Promise<Editor> {
  const e = await startEditor(t, ...args);
  editors.push(e);
  return e;
}

const say = (text: string) => [{ type: 'text' as const, text }];
const lastBody = () => t.api.messageRequests().at(-1)!.body;
/** The tool_call_update notifications the editor saw for one call. */
const updatesOf = (e: Editor, id: string) => e.updates.map((u) => u.update as Record<string, any>).filter((u) => u.toolCallId === id);

describe('the ACP adapter drives wicket', () => {
  it('a prompt, a Read, an Edit allowed (its diff drawn) and one rejected; the next prompt sees the first', async () => {
    const notes = t.project.path('notes.txt');
    t.api.script(
      reply().text('hello from wicket'),
      reply().toolUse('Read', { file_path: notes }, { id: 'toolu_r1' }),
      reply().text('read it'),
      reply().toolUse('Edit', { file_path: notes, old_string: 'beta', new_string: 'gamma' }, { id: 'toolu_e1' }),
      reply().text('edited'),
      reply().toolUse('Edit', { file_path: notes, old_string: 'alpha', new_string: 'omega' }, { id: 'toolu_e2' }),
      reply().text('not edited'),
    );
    const answers = ['allow', 'reject'];
    const e = await editor({ permission: () => answers.shift() ?? 'reject' });
    const { sessionId } = await e.conn.newSession({ cwd: t.project.dir, mcpServers: [] });

    expect((await e.conn.prompt({ sessionId, prompt: say('Say hello.') })).stopReason).toBe('end_turn');
    expect(e.text(sessionId)).toBe('hello from wicket');

    expect((await e.conn.prompt({ sessionId, prompt: say('Read notes.') })).stopReason).toBe('end_turn');
    expect(JSON.stringify(toolResultIn(lastBody(), 'toolu_r1'))).toContain('alpha');
    expect(updatesOf(e, 'toolu_r1').at(-1)).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(lastBody())).toContain('hello from wicket');

    expect((await e.conn.prompt({ sessionId, prompt: say('Edit notes.') })).stopReason).toBe('end_turn');
    expect(await t.project.read('notes.txt')).toBe('alpha\ngamma\n');
    expect(e.permissions[0]!.toolCall).toMatchObject({ toolCallId: 'toolu_e1', kind: 'edit', title: 'Edit notes.txt' });
    // The editor draws the diff from the PostToolUse hook's structuredPatch.
    const diff = updatesOf(e, 'toolu_e1')
      .flatMap((u) => u.content ?? [])
      .filter((c: any) => c.type === 'diff');
    expect(diff).toContainEqual({ type: 'diff', path: notes, oldText: 'alpha\nbeta', newText: 'alpha\ngamma' });
    expect(updatesOf(e, 'toolu_e1').at(-1)).toMatchObject({ status: 'completed' });

    expect((await e.conn.prompt({ sessionId, prompt: say('Edit again.') })).stopReason).toBe('end_turn');
    expect(await t.project.read('notes.txt')).toBe('alpha\ngamma\n');
    expect(e.permissions.map((p) => p.toolCall.toolCallId)).toEqual(['toolu_e1', 'toolu_e2']);
    expect(toolResultIn(lastBody(), 'toolu_e2')).toMatchObject({ is_error: true });
    expect(updatesOf(e, 'toolu_e2').at(-1)).toMatchObject({ status: 'failed' });
    expect(e.text(sessionId)).toBe('hello from wicketread iteditednot edited');
  });

  it('a mode change: acceptEdits lets an Edit run unasked; a command that is no file edit still asks and a rejection stops it', async () => {
    const notes = t.project.path('notes.txt');
    const victim = t.project.path('victim.txt');
    const remove = `node -e "require('fs').rmSync('${victim}')"`;
    t.api.script(
      reply().toolUse('Read', { file_path: notes }, { id: 'toolu_r2' }),
      reply().toolUse('Edit', { file_path: notes, old_string: 'beta', new_string: 'delta' }, { id: 'toolu_e3' }),
      reply().toolUse('Bash', { command: remove, description: 'Delete it' }, { id: 'toolu_b1' }),
      reply().text('stopped'),
    );
    const e = await editor({ permission: () => 'reject' });
    const { sessionId } = await e.conn.newSession({ cwd: t.project.dir, mcpServers: [] });
    await e.conn.setSessionMode({ sessionId, modeId: 'acceptEdits' });
    expect((await e.conn.prompt({ sessionId, prompt: say('Edit, then delete.') })).stopReason).toBe('end_turn');
    expect(await t.project.read('notes.txt')).toBe('alpha\ndelta\n');
    expect(e.permissions.map((p) => p.toolCall.toolCallId)).toEqual(['toolu_b1']);
    expect(existsSync(victim)).toBe(true);
    expect(toolResultIn(lastBody(), 'toolu_b1')).toMatchObject({ is_error: true });
  });

  // The adapter (0.23.1) leaves the cancelled turn's closing `idle` unread, so its next prompt ends
  // at once, with Claude Code as with wicket (fixed in later adapters: claude-agent-acp#480).
  it('cancel during a Bash stops the command and ends the prompt as cancelled', async () => {
    const after = t.project.path('after.txt');
    const pidFile = t.project.path('sleep.pid');
    t.api.script(reply().toolUse('Bash', { command: `echo $$ > ${pidFile}; sleep 20; touch ${after}`, description: 'Wait' }, { id: 'toolu_b2' }));
    const e = await editor({ permission: () => 'allow' });
    const { sessionId } = await e.conn.newSession({ cwd: t.project.dir, mcpServers: [] });
    const running = e.conn.prompt({ sessionId, prompt: say('Wait a while.') });
    await waitUntil(() => existsSync(pidFile), 10_000, 'the command to start');
    await e.conn.cancel({ sessionId });
    expect((await running).stopReason).toBe('cancelled');
    const pid = Number((await t.project.read('sleep.pid')).trim());
    await waitUntil(() => !alive(pid), 5_000, 'the command to stop');
    expect(existsSync(after)).toBe(false);
    // The turn stopped: the model was not asked again.
    expect(t.api.messageRequests()).toHaveLength(1);
  });

  it('cancel while a permission request is pending: the call never runs', async () => {
    const victim = t.project.path('victim.txt');
    t.api.script(reply().toolUse('Bash', { command: `rm ${victim}`, description: 'Delete it' }, { id: 'toolu_b3' }), reply().text('later'));
    let asked!: () => void;
    const pending = new Promise<void>((r) => (asked = r));
    let answer!: (a: string) => void;
    const e = await editor({
      permission: () => {
        asked();
        return new Promise<string>((r) => (answer = r));
      },
    });
    const { sessionId } = await e.conn.newSession({ cwd: t.project.dir, mcpServers: [] });
    const running = e.conn.prompt({ sessionId, prompt: say('Delete it.') });
    await pending;
    await e.conn.cancel({ sessionId });
    answer('cancelled');
    expect((await running).stopReason).toBe('cancelled');
    expect(existsSync(victim)).toBe(true);
  });

  it('loading a session: another editor lists it, replays it, and its next prompt continues it', async () => {
    t.api.script(reply().text('first answer'), reply().text('continued'));
    const first = await editor();
    const { sessionId } = await first.conn.newSession({ cwd: t.project.dir, mcpServers: [] });
    await first.conn.prompt({ sessionId, prompt: say('Remember the word kiwi.') });
    await first.close();
    editors = [];

    const second = await editor();
    const listed = await second.conn.listSessions({ cwd: t.project.dir });
    expect(listed.sessions.map((s: { sessionId: string }) => s.sessionId)).toContain(sessionId);
    await second.conn.loadSession({ sessionId, cwd: t.project.dir, mcpServers: [] });
    const replayed = second.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update as Record<string, any>);
    expect(replayed).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'user_message_chunk', content: expect.objectContaining({ text: 'Remember the word kiwi.' }) }),
    );
    expect(replayed).toContainEqual(
      expect.objectContaining({ sessionUpdate: 'agent_message_chunk', content: expect.objectContaining({ text: 'first answer' }) }),
    );
    expect((await second.conn.prompt({ sessionId, prompt: say('Which word?') })).stopReason).toBe('end_turn');
    const body = JSON.stringify(lastBody());
    expect(body).toContain('Remember the word kiwi.');
    expect(body).toContain('first answer');
  });
});
