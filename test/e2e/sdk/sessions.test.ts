// The SDK's session functions read the sessions wicket writes (Claude Code's format and place), and
// `resume` in query() continues one in wicket. The functions run in this process: CLAUDE_CONFIG_DIR
// points them at the test's HOME (never the real ~/.claude).
import { join } from 'node:path';
import { getSessionInfo, getSessionMessages, listSessions, renameSession, tagSession } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'notes.txt': 'alpha\nbeta\n' } });
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = join(t.project.home, '.claude');
});
afterEach(() => {
  if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = saved;
});

const textOf = (m: { message: unknown }) => JSON.stringify(m.message);

describe('the SDK reads and resumes the sessions wicket writes', () => {
  it('listSessions, getSessionInfo and getSessionMessages read a session run through query()', async () => {
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('notes.txt') }, { id: 'toolu_r1' }), reply().text('it says alpha'));
    const run = await sdkRun(t, 'Remember the word kiwi, then read notes.txt.');
    expect(run.error).toBeUndefined();
    const id = run.result!.session_id as string;

    const listed = await listSessions({ dir: t.project.dir });
    expect(listed.map((s) => s.sessionId)).toEqual([id]);
    expect(listed[0]).toMatchObject({ cwd: t.project.dir, firstPrompt: 'Remember the word kiwi, then read notes.txt.' });
    expect(await getSessionInfo(id, { dir: t.project.dir })).toMatchObject({ sessionId: id });

    const messages = await getSessionMessages(id, { dir: t.project.dir });
    expect(messages.map((m) => m.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(textOf(messages[0]!)).toContain('Remember the word kiwi');
    expect(textOf(messages[1]!)).toContain('toolu_r1');
    expect(textOf(messages[2]!)).toContain('tool_result');
    expect(textOf(messages[3]!)).toContain('it says alpha');
    expect(messages.every((m) => m.session_id === id)).toBe(true);
  });

  it('resume: query() with the id continues the session in wicket, and the SDK reads the longer session', async () => {
    t.api.script(reply().text('noted'), reply().text('kiwi'));
    const first = await sdkRun(t, 'Remember the word kiwi.');
    const id = first.result!.session_id as string;
    const second = await sdkRun(t, 'Which word?', { resume: id });
    expect(second.error).toBeUndefined();
    expect(second.result).toMatchObject({ subtype: 'success', result: 'kiwi', session_id: id });
    const body = JSON.stringify(t.api.messageRequests()[1]!.body);
    expect(body).toContain('Remember the word kiwi.');
    expect(body).toContain('noted');
    const messages = await getSessionMessages(id, { dir: t.project.dir });
    expect(messages.map((m) => m.type)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(textOf(messages.at(-1)!)).toContain('kiwi');
    expect((await listSessions({ dir: t.project.dir })).map((s) => s.sessionId)).toEqual([id]);
  });

  it('CLAUDE_CONFIG_DIR moves the sessions: wicket writes there and the SDK finds them there', async () => {
    const moved = join(t.project.home, 'elsewhere');
    process.env.CLAUDE_CONFIG_DIR = moved;
    t.api.script(reply().text('stored elsewhere'));
    const run = await sdkRun(t, 'Store this.', { env: { CLAUDE_CONFIG_DIR: moved } });
    const id = run.result!.session_id as string;
    expect((await listSessions({ dir: t.project.dir })).map((s) => s.sessionId)).toEqual([id]);
    expect(textOf((await getSessionMessages(id, { dir: t.project.dir })).at(-1)!)).toContain('stored elsewhere');
    process.env.CLAUDE_CONFIG_DIR = join(t.project.home, '.claude');
    expect(await listSessions({ dir: t.project.dir })).toEqual([]);
  });

  it('a session the SDK renamed and tagged still resumes in wicket; resume with forkSession starts a copy under a new id', async () => {
    t.api.script(reply().text('noted'), reply().text('kiwi'), reply().text('forked kiwi'));
    const id = (await sdkRun(t, 'Remember the word kiwi.')).result!.session_id as string;
    await renameSession(id, 'Fruit talk', { dir: t.project.dir });
    await tagSession(id, 'fruit', { dir: t.project.dir });
    expect(await getSessionInfo(id, { dir: t.project.dir })).toMatchObject({ customTitle: 'Fruit talk', tag: 'fruit' });
    const resumed = await sdkRun(t, 'Which word?', { resume: id });
    expect(resumed.result).toMatchObject({ subtype: 'success', result: 'kiwi', session_id: id });

    const forked = await sdkRun(t, 'And now?', { resume: id, forkSession: true });
    const copy = forked.result!.session_id as string;
    expect(forked.result).toMatchObject({ subtype: 'success', result: 'forked kiwi' });
    expect(copy).not.toBe(id);
    expect(JSON.stringify(t.api.messageRequests()[2]!.body)).toContain('Remember the word kiwi.');
    expect((await listSessions({ dir: t.project.dir })).map((s) => s.sessionId).sort()).toEqual([id, copy].sort());
    expect((await getSessionMessages(id, { dir: t.project.dir })).length).toBe(4);
    expect(textOf((await getSessionMessages(copy, { dir: t.project.dir })).at(-1)!)).toContain('forked kiwi');
  });
});
