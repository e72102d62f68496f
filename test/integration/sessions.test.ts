/**
 * Sessions through the built binary: written where and as Claude Code writes them, a Claude Code
 * transcript resumed (what reaches the fake API), -r by name, sessions of an older wicket, the notes
 * of a resumed session, and cleanupPeriodDays at start-up.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir, projectSlug, transcriptFile } from '../../src/session/paths.js';
import { apiMessages, listSessions } from '../support/claude-transcripts.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' }, git: true });

const FIXTURE_ID = '1ac0e848-392e-4737-a061-278339c3bacc';
const FIXTURE = path.resolve(__dirname, '../fixtures/sessions', `${FIXTURE_ID}.jsonl`);
const configDir = () => path.join(t.project.home, '.claude');

type Body = { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> };
const texts = (body: Body) => body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? `[${b.type}]`).join(' ')));
const lastBody = () => t.api.messageRequests().at(-1)!.body as Body;

async function session(prompt: string, answer: string, extra: string[] = [], env: Record<string, string> = {}): Promise<string> {
  t.api.script(reply().text(answer));
  const r = await t.run(['-p', prompt, '--output-format', 'json', ...extra], { env });
  expectExit(r, 0);
  return r.json<{ session_id: string }>().session_id;
}

describe("Claude Code's place and format", () => {
  it('a print-mode session is written to <config dir>/projects/<slug>/<id>.jsonl, read back by Claude Code’s format; CLAUDE_CONFIG_DIR moves it', async () => {
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a.txt') }));
    const id = await session('read a.txt', 'It says alpha.', ['-n', 'first look']);
    const file = transcriptFile(configDir(), t.project.dir, id);
    expect(apiMessages(file).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(listSessions(configDir(), t.project.dir)).toEqual([
      expect.objectContaining({ sessionId: id, summary: 'first look', cwd: t.project.dir, gitBranch: expect.any(String) }),
    ]);
    const recs = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(recs.find((r) => r.type === 'user')).toMatchObject({ entrypoint: 'sdk-cli', sessionId: id, cwd: t.project.dir, parentUuid: null });
    expect(recs.find((r) => r.type === 'wicket-gate-trace')).toMatchObject({ toolName: 'Read', isError: false });
    expect(existsSync(path.join(t.project.wicketHome, 'sessions', projectSlug(t.project.dir)))).toBe(false);

    const elsewhere = path.join(t.project.home, 'cc-config');
    const moved = await session('hello', 'hi', [], { CLAUDE_CONFIG_DIR: elsewhere });
    expect(existsSync(transcriptFile(elsewhere, t.project.dir, moved))).toBe(true);
    expect(existsSync(transcriptFile(configDir(), t.project.dir, moved))).toBe(false);
  });

  it('resumes the transcript Claude Code 2.1.332 wrote: the model gets its conversation, and the person is told it ran in another folder', async () => {
    const dir = path.join(configDir(), 'projects', projectSlug('/tmp/sess-scratch/pf'));
    mkdirSync(dir, { recursive: true });
    copyFileSync(FIXTURE, path.join(dir, `${FIXTURE_ID}.jsonl`));
    t.api.script(reply().text('Going on.'));
    const r = await t.run(['-p', 'and then?', '--resume', FIXTURE_ID, '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<{ session_id: string }>().session_id).toBe(FIXTURE_ID);
    expect(texts(lastBody())).toEqual(['What does notes.txt say?', 'Let me read it. [tool_use]', '[tool_result]', 'The file says: alpha line.', 'and then?']);
    expect(JSON.stringify(lastBody().messages[2])).toContain('alpha line');
    expect(r.stderr).toContain(`This session was last used in /tmp/sess-scratch/pf; it now goes on in ${t.project.dir}`);
    // Appended to Claude Code's file, in its chain.
    const after = apiMessages(path.join(dir, `${FIXTURE_ID}.jsonl`));
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    // Not by its name from this project: as Claude Code, a name is looked for in this project only.
    const byName = await t.run(['-p', 'once more', '-r', 'cc fixture']);
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain('Provided value "cc fixture" is not a UUID and does not match any session title.');
  });

  it('-r with an id or name that matches no session is an error that says so', async () => {
    const r = await t.run(['-p', 'x', '-r', 'nothing by this name']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Provided value "nothing by this name" is not a UUID and does not match any session title.');
    expect(t.api.messageRequests()).toHaveLength(0);
  });
});

describe('older sessions and what changed', () => {
  it('a session an older wicket kept under ~/.wicket/sessions is found by -c, and goes on in Claude Code’s place', async () => {
    const old = path.join(t.project.wicketHome, 'sessions', projectSlug(t.project.dir), 'old-session.jsonl');
    mkdirSync(path.dirname(old), { recursive: true });
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    writeFileSync(
      old,
      line({ type: 'prompt_checkpoint', prompt: 'old prompt' }) +
        line({
          type: 'user',
          message: { role: 'user', content: [{ type: 'text', text: 'old prompt' }] },
          uuid: 'a',
          sessionId: 'old-session',
          cwd: t.project.dir,
        }) +
        line({
          type: 'assistant',
          message: { role: 'assistant', content: [{ type: 'text', text: 'old answer' }] },
          uuid: 'b',
          sessionId: 'old-session',
          cwd: t.project.dir,
        }),
    );
    const id = await session('new prompt', 'new answer', ['-c']);
    expect(id).toBe('old-session');
    expect(texts(lastBody())).toEqual(['old prompt', 'old answer', 'new prompt']);
    expect(apiMessages(transcriptFile(configDir(), t.project.dir, 'old-session')).length).toBe(4);
    expect(readFileSync(old, 'utf8')).not.toContain('new prompt');
  });

  it('a resumed session keeps the instruction files it was given at the head; those changed since come once, before the next prompt', async () => {
    await t.project.write('CLAUDE.md', 'Rules: BEFORE-MARK.\n');
    const id = await session('first', 'one');
    await t.project.write('CLAUDE.md', 'Rules: AFTER-MARK.\n');
    await session('second', 'two', ['-r', id]);
    const body = lastBody();
    const head = (body.messages[0]!.content as Array<{ text?: string }>)[0]!.text!;
    expect(head).toContain('Rules: BEFORE-MARK.');
    expect(head).not.toContain('AFTER-MARK');
    expect(texts(body).at(-1)).toBe(
      `<system-reminder>\nInstruction files were re-read when this session started; these differ from their earlier copies \u2014 each replaces its earlier copy, and the instructions preamble above still applies:\n\nContents of ${t.project.path('CLAUDE.md')} (project instructions, checked into the codebase):\n\nRules: AFTER-MARK.\n</system-reminder>\n second`,
    );
    await session('third', 'three', ['-r', id]);
    expect(texts(lastBody()).at(-1)).toBe('third');
  });

  it('a file the session read that changed since is named before the first prompt', async () => {
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a.txt') }));
    await session('read a.txt', 'alpha it is');
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(t.project.path('a.txt'), 'beta\n');
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'again', '-c']);
    expectExit(r, 0);
    expect(r.stderr).toContain(`A file this session worked on changed since its last message: ${t.project.path('a.txt')}`);
  });
});

describe('cleanupPeriodDays', () => {
  it('at start-up, transcripts older than the period go with their checkpoints; younger ones and the resumed one stay', async () => {
    const age = (file: string, days: number) => {
      const when = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
      utimesSync(file, when, when);
    };
    const a = await session('one', 'a1');
    const b = await session('two', 'b2');
    const history = path.join(t.project.wicketHome, 'file-history', a);
    mkdirSync(history, { recursive: true });
    writeFileSync(path.join(history, 'checkpoints.json'), '{}');
    age(transcriptFile(configDir(), t.project.dir, a), 12);
    age(history, 12);
    age(transcriptFile(configDir(), t.project.dir, b), 12);
    await t.project.write('.claude/settings.json', JSON.stringify({ cleanupPeriodDays: 10 }));
    await session('three', 'c3', ['--resume', b]);
    const left = readdirSync(projectSessionsDir(configDir(), t.project.dir))
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    expect(left).toEqual([`${b}.jsonl`]);
    expect(existsSync(history)).toBe(false);
  });
  it('cleanupPeriodDays 0 is a settings error, and removes nothing (as Claude Code 2.1.332 keeps everything then)', async () => {
    const a = await session('one', 'a1');
    const file = transcriptFile(configDir(), t.project.dir, a);
    const when = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000);
    utimesSync(file, when, when);
    await t.project.write('.claude/settings.json', JSON.stringify({ cleanupPeriodDays: 0 }));
    t.api.script(reply().text('b2'));
    const r = await t.run(['-p', 'two']);
    expectExit(r, 0);
    expect(r.stderr).toContain('"cleanupPeriodDays" must be at least 1');
    expect(existsSync(file)).toBe(true);
  });
});
