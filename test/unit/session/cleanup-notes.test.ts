/** cleanupPeriodDays at start-up, and what a resumed session says before its first prompt. */
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupDays, cleanupOldSessions, cleanupOldSessionsInBackground } from '../../../src/session/cleanup.js';
import { fileHistoryDir, legacySessionsDir, transcriptFile } from '../../../src/session/paths.js';
import { resumeNotes } from '../../../src/session/resume-notes.js';

const DAY = 24 * 60 * 60 * 1000;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function root(): { configDir: string; wicketHome: string; cwd: string } {
  const r = mkdtempSync(path.join(tmpdir(), 'wicket-cleanup-'));
  dirs.push(r);
  return { configDir: path.join(r, '.claude'), wicketHome: path.join(r, '.wicket'), cwd: path.join(r, 'project') };
}

/** A file (and its folders) last written `days` ago. */
function aged(file: string, days: number, dir = false): string {
  mkdirSync(dir ? file : path.dirname(file), { recursive: true });
  if (!dir) writeFileSync(file, '{}\n');
  const t = new Date(Date.now() - days * DAY);
  utimesSync(file, t, t);
  return file;
}

describe('cleanupPeriodDays', () => {
  it.each([
    ['at once', (p: Parameters<typeof cleanupOldSessions>[0], d: number) => Promise.resolve(cleanupOldSessions(p, d))],
    ['while a run goes on', cleanupOldSessionsInBackground],
  ])('removes transcripts older than the period with their folder, checkpoints and large outputs; keeps the rest (%s)', async (_, clean) => {
    const p = root();
    const old = aged(transcriptFile(p.configDir, p.cwd, 'old'), 40);
    const oldFolder = aged(path.join(path.dirname(old), 'old', 'subagents', 'agent-1.jsonl'), 40);
    const oldHistory = aged(path.join(fileHistoryDir(p.wicketHome, 'old'), 'checkpoints.json'), 40);
    const oldOutputs = aged(path.join(p.wicketHome, 'sessions', 'old', 'bash-1.log'), 40);
    const legacy = aged(path.join(legacySessionsDir(p.wicketHome, p.cwd), 'legacy.jsonl'), 31);
    const recent = aged(transcriptFile(p.configDir, '/elsewhere', 'recent'), 29);
    const recentHistory = aged(path.join(fileHistoryDir(p.wicketHome, 'recent'), 'checkpoints.json'), 1);
    const kept = aged(transcriptFile(p.configDir, p.cwd, 'resumed-now'), 90);
    const orphan = aged(fileHistoryDir(p.wicketHome, 'no-transcript'), 45, true);
    const removed = await clean({ ...p, keep: ['resumed-now'] }, 30);
    expect(removed.sort()).toEqual(['legacy', 'old']);
    for (const f of [old, oldFolder, oldHistory, oldOutputs, legacy, orphan]) expect(existsSync(f)).toBe(false);
    for (const f of [recent, recentHistory, kept]) expect(existsSync(f)).toBe(true);
  });

  it('a shorter period removes more; unset means the default 30; a value that is not a whole number of at least 1 (0 too) removes nothing', () => {
    const p = root();
    const week = aged(transcriptFile(p.configDir, p.cwd, 'week'), 8);
    expect(cleanupOldSessions(p, cleanupDays(7))).toEqual(['week']);
    expect(existsSync(week)).toBe(false);
    const never = Number.POSITIVE_INFINITY;
    expect([cleanupDays(undefined), cleanupDays('5'), cleanupDays(0), cleanupDays(-3), cleanupDays(Number.NaN), cleanupDays(1.5), cleanupDays(12)]).toEqual([
      30,
      never,
      never,
      never,
      never,
      never,
      12,
    ]);
    const old = aged(transcriptFile(p.configDir, p.cwd, 'old'), 400);
    expect(cleanupOldSessions(p, cleanupDays(0))).toEqual([]);
    expect(existsSync(old)).toBe(true);
    expect(cleanupOldSessions({ configDir: '/nonexistent/a', wicketHome: '/nonexistent/b' }, 30)).toEqual([]);
  });
});

describe('a resumed session says what changed', () => {
  const read = (file: string) => ({
    role: 'assistant' as const,
    content: [{ type: 'tool_use' as const, id: `t-${file}`, name: 'Read', input: { file_path: file } }],
  });

  it('names another folder, and the files it worked on that changed since its last record', () => {
    const p = root();
    mkdirSync(p.cwd, { recursive: true });
    const since = Date.now() - DAY;
    writeFileSync(path.join(p.cwd, 'changed.ts'), 'x');
    aged(path.join(p.cwd, 'same.ts'), 2);
    const messages = [{ role: 'user' as const, content: 'go' }, read('changed.ts'), read(path.join(p.cwd, 'same.ts')), read('gone.ts')];
    const saved = { messages, cwd: p.cwd, lastTimestamp: new Date(since).toISOString() };
    expect(resumeNotes(saved, p.cwd)).toEqual([
      `A file this session worked on changed since its last message: ${path.join(p.cwd, 'changed.ts')}. Have it read again before relying on what the conversation says of it.`,
    ]);
    const [elsewhere] = resumeNotes(saved, '/some/other/folder');
    expect(elsewhere).toBe(`This session was last used in ${p.cwd}; it now goes on in /some/other/folder, so relative paths in it may point elsewhere.`);
    expect(resumeNotes({ ...saved, lastTimestamp: new Date().toISOString() }, p.cwd)).toEqual([]);
    expect(resumeNotes({ messages: [] }, p.cwd)).toEqual([]);
  });
});
