/**
 * Transcripts in Claude Code's format and place: what wicket writes is read by a reader written from
 * Claude Code's format (test/support/claude-transcripts.ts) as wicket reads it; a transcript Claude
 * Code 2.1.332 wrote (test/fixtures/sessions) is read by wicket; older wicket files are still found.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiMessage } from '../../../src/base/events.js';
import { projectSlug, transcriptFile } from '../../../src/session/paths.js';
import { findSession, listSessions } from '../../../src/session/session-list.js';
import { loadSession } from '../../../src/session/transcript-read.js';
import { TranscriptWriter } from '../../../src/session/transcript.js';
import { apiMessages, getSessionMessages, listSessions as sdkListSessions } from '../../support/claude-transcripts.js';

const FIXTURE_ID = '1ac0e848-392e-4737-a061-278339c3bacc';
const FIXTURE = path.resolve(__dirname, '../../fixtures/sessions', `${FIXTURE_ID}.jsonl`);
/** Where Claude Code ran when it wrote the fixture. */
const FIXTURE_CWD = '/tmp/sess-scratch/pf';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function places() {
  const root = mkdtempSync(path.join(tmpdir(), 'wicket-sessions-'));
  dirs.push(root);
  const cwd = path.join(root, 'project');
  mkdirSync(cwd);
  return { configDir: path.join(root, '.claude'), wicketHome: path.join(root, '.wicket'), cwd };
}

function writer(file: string, sessionId: string, cwd: string): TranscriptWriter {
  return new TranscriptWriter(file, { sessionId, cwd: () => cwd, version: '0.1.0', gitBranch: 'main', model: 'claude-sonnet-4-6', entrypoint: 'cli' });
}

const text = (t: string) => [{ type: 'text' as const, text: t }];
const toText = (messages: Array<{ content: unknown }>) =>
  messages.map((m) =>
    (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Array<{ type: string; text?: string }>))
      .map((b) => b.text ?? `[${b.type}]`)
      .join(' '),
  );

/** A session with a tool call, a rewind and a compaction, written as the app writes one. */
function writeSession(file: string, id: string, cwd: string): TranscriptWriter {
  const w = writer(file, id, cwd);
  const messages: ApiMessage[] = [];
  const add = (m: ApiMessage) => {
    messages.push(m);
    w.message(m);
  };
  w.checkpoint('read it', 1);
  add({ role: 'user', content: text('read it') });
  w.onEvent({
    type: 'assistant_message',
    message: {
      role: 'assistant',
      id: 'msg_1',
      model: 'claude-sonnet-4-6',
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } }],
    },
  });
  messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a.txt' } }] });
  w.onEvent({ type: 'tool_results_message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'alpha' }] } });
  messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'alpha' }] });
  add({ role: 'assistant', content: text('it says alpha') });
  w.checkpoint('a wrong turn', 2);
  add({ role: 'user', content: text('a wrong turn') });
  add({ role: 'assistant', content: text('wrong answer') });
  // Rewound to before "a wrong turn", then on.
  messages.splice(4);
  w.restart(messages, 'rewind', [{ text: 'read it', checkpoint: 1, at: 0 }]);
  w.checkpoint('the right turn', 3);
  add({ role: 'user', content: text('the right turn') });
  add({ role: 'assistant', content: text('right answer') });
  w.name('parser work');
  return w;
}

describe("Claude Code's place", () => {
  it('the project folder is named by Claude Code’s rule: non-alphanumerics become "-", a long path is cut at 200 and hashed', () => {
    expect(projectSlug('/home/user/work/my_repo.js')).toBe('-home-user-work-my-repo-js');
    // The folder Claude Code 2.1.332 made for this path (run in it).
    const long = `/tmp/sess-scratch/${Array.from({ length: 8 }, (_, i) => `averyveryverylongfoldername${String(i).padStart(2, '0')}`).join('/')}`;
    expect(projectSlug(long)).toBe(`${long.replace(/[^a-zA-Z0-9]/g, '-').slice(0, 200)}-6eegwm`);
    expect(transcriptFile('/cfg', '/a/b', 'id-1')).toBe('/cfg/projects/-a-b/id-1.jsonl');
  });
});

describe("wicket's transcript, read as Claude Code's", () => {
  it('every message is a user or assistant record chained by parentUuid, with the fields Claude Code writes; wicket’s own records stay outside the chain', () => {
    const p = places();
    const file = transcriptFile(p.configDir, p.cwd, 'sess-1');
    writeSession(file, 'sess-1', p.cwd);
    const recs = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const chained = recs.filter((r) => r.type === 'user' || r.type === 'assistant');
    for (const r of chained) {
      expect(r).toMatchObject({
        isSidechain: false,
        userType: 'external',
        cwd: p.cwd,
        sessionId: 'sess-1',
        version: '0.1.0',
        gitBranch: 'main',
        entrypoint: 'cli',
      });
      expect(r.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(r.timestamp)).not.toBeNaN();
      expect(r.parentUuid === null || chained.some((o) => o.uuid === r.parentUuid)).toBe(true);
    }
    expect(chained[1].message).toMatchObject({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_reason: 'tool_use' });
    expect(chained[1].parentUuid).toBe(chained[0].uuid);
    // After the rewind, the next prompt points back to the reply before the wrong turn.
    const right = chained.find((r) => JSON.stringify(r.message).includes('the right turn'));
    expect(right.parentUuid).toBe(chained.find((r) => JSON.stringify(r.message).includes('it says alpha')).uuid);
    const own = recs.filter((r) => String(r.type).startsWith('wicket-'));
    expect(new Set(own.map((r) => r.type))).toEqual(new Set(['wicket-checkpoint', 'wicket-reset']));
    for (const r of own) expect(r.uuid ?? r.parentUuid).toBeUndefined();
    expect(recs).toContainEqual({ type: 'custom-title', customTitle: 'parser work', sessionId: 'sess-1' });
  });

  it('round trip: the reader written from Claude Code’s format finds the session and the same conversation wicket resumes', () => {
    const p = places();
    const file = transcriptFile(p.configDir, p.cwd, 'sess-2');
    writeSession(file, 'sess-2', p.cwd);
    const saved = loadSession(file);
    expect(toText(saved.messages)).toEqual(['read it', '[tool_use]', '[tool_result]', 'it says alpha', 'the right turn', 'right answer']);
    expect(apiMessages(file)).toEqual(saved.messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? text(m.content) : m.content })));
    expect(getSessionMessages(file).every((m) => m.session_id === 'sess-2')).toBe(true);
    expect(sdkListSessions(p.configDir, p.cwd)).toEqual([
      expect.objectContaining({ sessionId: 'sess-2', summary: 'parser work', cwd: p.cwd, gitBranch: 'main', firstPrompt: 'read it' }),
    ]);
    // The rewind points: the kept prompt where it was, the new one after the reply it follows.
    expect(saved.marks).toEqual([
      { text: 'read it', checkpoint: 1, at: 0 },
      { text: 'the right turn', checkpoint: 3, at: 4 },
    ]);
  });

  it('a compaction starts a new chain at a compact_boundary record; both readers start from the summary', () => {
    const p = places();
    const file = transcriptFile(p.configDir, p.cwd, 'sess-3');
    const w = writeSession(file, 'sess-3', p.cwd);
    w.onEvent({ type: 'compact', trigger: 'auto', preTokens: 1234, summary: 'S', messages: [{ role: 'user', content: 'This session is being continued. S' }] });
    w.message({ role: 'assistant', content: text('after the summary') });
    const boundary = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.subtype === 'compact_boundary');
    expect(boundary).toMatchObject({ type: 'system', parentUuid: null, compactMetadata: { trigger: 'auto', preTokens: 1234 } });
    expect(boundary.logicalParentUuid).toEqual(expect.any(String));
    expect(toText(loadSession(file).messages)).toEqual(['This session is being continued. S', 'after the summary']);
    expect(toText(apiMessages(file))).toEqual(['This session is being continued. S', 'after the summary']);
    expect(loadSession(file).marks).toEqual([
      { text: 'read it', checkpoint: 1 },
      { text: 'the right turn', checkpoint: 3 },
    ]);
  });
});

describe('a transcript Claude Code 2.1.332 wrote', () => {
  it('is resumed by wicket: the chain’s user and assistant records, one reply’s two records as one message, attachments left out', () => {
    const saved = loadSession(FIXTURE);
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(saved.messages[0]!.content).toBe('What does notes.txt say?');
    expect(saved.messages[1]!.content).toEqual([
      { type: 'text', text: 'Let me read it.' },
      { type: 'tool_use', id: expect.any(String), name: 'Read', input: { file_path: `${FIXTURE_CWD}/notes.txt` } },
    ]);
    expect(JSON.stringify(saved.messages[2])).toContain('alpha line');
    expect(toText([saved.messages[3]!])).toEqual(['The file says: alpha line.']);
    expect(saved.cwd).toBe(FIXTURE_CWD);
    // It goes on from Claude Code's last record of the chain.
    expect(saved.leaf).toBe(getSessionMessages(FIXTURE).at(-1)!.uuid);
    expect(apiMessages(FIXTURE)).toEqual(saved.messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? text(m.content) : m.content })));
  });

  it('is listed with its name, first prompt, message count and branch; found by id from any project, by name from its own (as Claude Code)', () => {
    const p = places();
    const dir = path.join(p.configDir, 'projects', projectSlug(FIXTURE_CWD));
    mkdirSync(dir, { recursive: true });
    copyFileSync(FIXTURE, path.join(dir, `${FIXTURE_ID}.jsonl`));
    expect(listSessions(p)).toEqual([]);
    expect(listSessions(p, true)).toEqual([
      expect.objectContaining({
        id: FIXTURE_ID,
        title: 'cc fixture',
        firstPrompt: 'What does notes.txt say?',
        messageCount: 4,
        gitBranch: 'main',
        cwd: FIXTURE_CWD,
      }),
    ]);
    expect(findSession(FIXTURE_ID, p)).toBe(path.join(dir, `${FIXTURE_ID}.jsonl`));
    expect(findSession('CC Fixture', p)).toBeUndefined();
    expect(findSession('CC Fixture', { ...p, cwd: FIXTURE_CWD })).toBe(path.join(dir, `${FIXTURE_ID}.jsonl`));
    expect(findSession('no such session', p)).toBeUndefined();
  });
});

describe('sessions an older wicket wrote (~/.wicket/sessions)', () => {
  const legacy = [
    { type: 'prompt_checkpoint', prompt: 'old prompt', checkpoint: 7 },
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: 'old prompt' }] },
      uuid: 'u1',
      sessionId: 'old-1',
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/x',
    },
    { type: 'gate_trace', tool_use_id: 't', tool_name: 'Read', trace: [] },
    {
      type: 'assistant',
      message: { role: 'assistant', content: text('old answer') },
      uuid: 'u2',
      sessionId: 'old-1',
      timestamp: '2026-01-01T00:00:01.000Z',
      cwd: '/x',
    },
    { type: 'custom-title', customTitle: 'old work', sessionId: 'old-1' },
  ];

  it('are listed, found and read as written; a copy in Claude Code’s place wins for the same id', () => {
    const p = places();
    const dir = path.join(p.wicketHome, 'sessions', projectSlug(p.cwd));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'old-1.jsonl'), legacy.map((l) => JSON.stringify(l)).join('\n'));
    const [found] = listSessions(p);
    expect(found).toMatchObject({ id: 'old-1', legacy: true, title: 'old work', firstPrompt: 'old prompt', messageCount: 2 });
    expect(findSession('old work', p)).toBe(path.join(dir, 'old-1.jsonl'));
    const saved = loadSession(path.join(dir, 'old-1.jsonl'));
    expect(saved).toMatchObject({ legacy: true, marks: [{ text: 'old prompt', checkpoint: 7, at: 0 }] });
    expect(toText(saved.messages)).toEqual(['old prompt', 'old answer']);
    writeSession(transcriptFile(p.configDir, p.cwd, 'old-1'), 'old-1', p.cwd);
    expect(listSessions(p).map((s) => [s.id, s.legacy])).toEqual([['old-1', false]]);
  });
});

describe('bad input', () => {
  it('a torn last line, a line that is not an object and a record without a message are passed over', () => {
    const p = places();
    const file = transcriptFile(p.configDir, p.cwd, 'sess-4');
    writeSession(file, 'sess-4', p.cwd);
    writeFileSync(file, `${readFileSync(file, 'utf8')}[1,2]\n"text"\n{"type":"user","uuid":"zz","parentUuid":null}\n{"type":"assi`);
    expect(toText(loadSession(file).messages)).toEqual(['read it', '[tool_use]', '[tool_result]', 'it says alpha', 'the right turn', 'right answer']);
  });
});
