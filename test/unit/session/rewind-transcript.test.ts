/** Rewind marks, and the transcript starting over from a rewound or compacted conversation. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendUser } from '../../../src/core/conversation.js';
import type { ApiMessage } from '../../../src/core/events.js';
import { loadTranscript, TranscriptWriter } from '../../../src/session/transcript.js';
import { markPrompt, rewindTo } from '../../../src/ui/rewind.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('rewind marks', () => {
  it('cut back to a prompt that started a message', () => {
    const m: ApiMessage[] = [];
    const first = markPrompt(m, 'one');
    appendUser(m, 'one');
    m.push({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    const second = markPrompt(m, 'two');
    appendUser(m, 'two');
    m.push({ role: 'assistant', content: [{ type: 'text', text: 'b' }] });
    const copy = structuredClone(m);
    rewindTo(copy, second);
    expect(copy).toEqual(m.slice(0, 2));
    rewindTo(m, first);
    expect(m).toEqual([]);
  });

  it('cut back to a prompt that joined tool results (an interrupted run), keeping the results', () => {
    const m: ApiMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
    ];
    const mark = markPrompt(m, 'next');
    appendUser(m, 'next');
    m.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    rewindTo(m, mark);
    expect(m).toHaveLength(3);
    expect(m[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: 'x' }]);
  });
});

describe('transcript restarts', () => {
  it('a resumed session starts after the last reset, with the messages written after it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wicket-transcript-'));
    dirs.push(dir);
    const file = path.join(dir, 's.jsonl');
    const w = new TranscriptWriter(file, 's', dir);
    w.message({ role: 'user', content: 'one' });
    w.message({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    w.restart([{ role: 'user', content: 'kept' }, { role: 'assistant', content: [{ type: 'text', text: 'k' }] }], 'rewind');
    w.message({ role: 'user', content: 'after' });
    expect(readFileSync(file, 'utf8')).toContain('"type":"conversation_reset","reason":"rewind"');
    expect(loadTranscript(file).map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join('')))).toEqual(['kept', 'k', 'after']);
  });
});
