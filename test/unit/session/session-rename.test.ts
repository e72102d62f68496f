import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { summarize } from '../../../src/session/session-list.js';
import { renameSavedSession } from '../../../src/session/session-rename.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function transcript(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-rename-'));
  dirs.push(dir);
  const file = path.join(dir, 's1.jsonl');
  writeFileSync(file, text);
  return file;
}

const USER = JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's1', message: { role: 'user', content: 'first prompt' } });

describe('renaming a saved session', () => {
  it('appends a custom-title record, as Claude Code’s picker does, and the list shows the name', () => {
    const file = transcript(`${USER}\n`);
    expect(renameSavedSession(file, 's1', '  release   prep ')).toBe('release prep');
    expect(readFileSync(file, 'utf8').split('\n').at(-2)).toBe('{"type":"custom-title","customTitle":"release prep","sessionId":"s1"}');
    expect(summarize({ id: 's1', file, mtimeMs: 0, legacy: false })?.title).toBe('release prep');
  });

  it('keeps a line cut short on its own line, and writes nothing for a blank name', () => {
    const file = transcript(`${USER}\n{"type":"assis`);
    renameSavedSession(file, 's1', 'named');
    expect(readFileSync(file, 'utf8').split('\n').slice(-2)).toEqual(['{"type":"custom-title","customTitle":"named","sessionId":"s1"}', '']);
    expect(renameSavedSession(file, 's1', ' \t ')).toBeUndefined();
    expect(summarize({ id: 's1', file, mtimeMs: 0, legacy: false })?.title).toBe('named');
  });
});
