/** Rewind marks, kept in the transcript, and the transcript starting over from a rewound or compacted conversation. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendUser } from '../../../src/base/conversation.js';
import type { ApiMessage } from '../../../src/base/events.js';
import { TranscriptWriter } from '../../../src/session/transcript.js';
import { loadSession as loadSaved, loadTranscript } from '../../../src/session/transcript-read.js';
import { runPrompt } from '../../../src/core/run-prompt.js';
import { emptyUsage } from '../../../src/base/usage.js';
import type { ModelClient } from '../../../src/api/model-client.js';
import { FileHistory } from '../../../src/core/file-history.js';
import { MemoryHistoryStore } from '../../../src/core/file-history-store.js';
import { noHooks } from '../../../src/hooks/types.js';
import { agentOptions } from '../core/fake-tools.js';
import { markPrompt, rewindTo, type PromptMark } from '../../../src/base/prompt-marks.js';

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
    const w = writerFor(file);
    w.message({ role: 'user', content: 'one' });
    w.message({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    w.restart(
      [
        { role: 'user', content: 'kept' },
        { role: 'assistant', content: [{ type: 'text', text: 'k' }] },
      ],
      'rewind',
    );
    w.message({ role: 'user', content: 'after' });
    expect(readFileSync(file, 'utf8')).toContain('"type":"wicket-reset","reason":"rewind"');
    expect(
      loadTranscript(file).map((m: ApiMessage) =>
        typeof m.content === 'string' ? m.content : m.content.map((b: any) => ('text' in b ? b.text : '')).join(''),
      ),
    ).toEqual(['kept', 'k', 'after']);
  });
});

function writerFor(file: string): TranscriptWriter {
  return new TranscriptWriter(file, { sessionId: 's', cwd: () => path.dirname(file), version: 'test', model: 'm', entrypoint: 'cli' });
}

/** The conversation and rewind points of a saved session. */
function loadSession(file: string): { messages: ApiMessage[]; marks: PromptMark[] } {
  const { messages, marks } = loadSaved(file);
  return { messages, marks };
}

function tmpFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wicket-transcript-'));
  dirs.push(dir);
  return path.join(dir, 's.jsonl');
}

const TOOL_ROUND: ApiMessage[] = [
  { role: 'user', content: 'go' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 't1', content: 'x' },
      { type: 'text', text: '[Request interrupted by the user]' },
    ],
  },
];

function textClient(text: string): ModelClient {
  return {
    async *stream() {
      yield { type: 'text', text };
      return { id: 'm', model: 'x', content: [{ type: 'text', text }], stopReason: 'end_turn', usage: emptyUsage(), truncated: false };
    },
  };
}

/** Runs prompts through runPrompt as the app does, writing the transcript; returns the live marks. */
async function session(file: string, start: ApiMessage[], prompts: string[]): Promise<{ messages: ApiMessage[]; marks: PromptMark[] }> {
  const w = writerFor(file);
  for (const m of start) w.message(m);
  const messages = structuredClone(start);
  const marks: PromptMark[] = [];
  const opts = agentOptions(textClient('ok'), { fileHistory: new FileHistory(new MemoryHistoryStore()) });
  for (const p of prompts) {
    for await (const ev of runPrompt(messages, p, opts, { onUserMessage: (m) => w.message(m), shown: `/${p}` })) {
      w.onEvent(ev);
      if (ev.type === 'prompt_checkpoint') marks.push(markPrompt(messages, ev.prompt, ev.checkpoint));
    }
  }
  return { messages, marks };
}

describe('rewind points in the transcript', () => {
  it('a resumed session has the prompts of the earlier runs, each with its checkpoint and place', async () => {
    const file = tmpFile();
    const live = await session(file, [], ['one', 'two']);
    expect(live.marks.map((m) => [m.text, m.at])).toEqual([
      ['/one', 0],
      ['/two', 2],
    ]);
    expect(live.marks.every((m) => typeof m.checkpoint === 'number')).toBe(true);
    expect(loadSession(file)).toEqual(live);
  });

  it('a prompt that joined tool results is saved apart: no result is doubled on resume, and its mark keeps the results', async () => {
    const file = tmpFile();
    const live = await session(file, TOOL_ROUND, ['next']);
    const saved = loadSession(file);
    expect(saved).toEqual(live);
    expect(JSON.stringify(saved.messages).match(/tool_result/g)).toHaveLength(1);
    expect(saved.marks[0]).toMatchObject({ at: 3, blocks: 2 });
    rewindTo(saved.messages, saved.marks[0]!);
    // The text the prompt joined keeps the line break the join gave it, as Claude Code sends such a seam.
    const joined = structuredClone(TOOL_ROUND);
    (joined[2]!.content as Array<{ type: string; text?: string }>)[1]!.text += '\n';
    expect(saved.messages).toEqual(joined);
  });

  it('a restart keeps the remaining marks where they were, splitting a message a prompt joined', async () => {
    const file = tmpFile();
    const live = await session(file, TOOL_ROUND, ['next', 'after']);
    const w = writerFor(file);
    w.restart(live.messages, 'rewind', live.marks);
    expect(loadSession(file)).toEqual(live);
    // Rewound to before "after": what is left is saved with its own mark.
    rewindTo(live.messages, live.marks[1]!);
    live.marks.splice(1);
    w.restart(live.messages, 'rewind', live.marks);
    expect(loadSession(file)).toEqual(live);
  });

  it('after a compaction the earlier prompts keep only their checkpoints (the code can go back, the conversation cannot)', async () => {
    const file = tmpFile();
    const live = await session(file, [], ['one']);
    const w = writerFor(file);
    w.onEvent({ type: 'compact', trigger: 'manual', preTokens: 10, summary: 's', messages: [{ role: 'user', content: 'summary' }] });
    let saved = loadSession(file);
    expect(saved.marks).toEqual([{ text: '/one', checkpoint: live.marks[0]!.checkpoint }]);
    w.restart(saved.messages, 'rewind', saved.marks);
    saved = loadSession(file);
    expect(saved.marks).toEqual([{ text: '/one', checkpoint: live.marks[0]!.checkpoint }]);
    expect(saved.messages).toEqual([{ role: 'user', content: 'summary' }]);
  });

  it('a blocked prompt is no rewind point; a print-mode retry nudge is none either', async () => {
    const file = tmpFile();
    const w = writerFor(file);
    const messages: ApiMessage[] = [];
    const blocked = agentOptions(textClient('ok'), { hooks: { ...noHooks, userPromptSubmit: async () => ({ block: 'no' }) } });
    for await (const ev of runPrompt(messages, 'x', blocked, { onUserMessage: (m) => w.message(m) })) w.onEvent(ev);
    for await (const ev of runPrompt(messages, 'nudge', agentOptions(textClient('ok')), { onUserMessage: (m) => w.message(m), checkpoint: false }))
      w.onEvent(ev);
    expect(loadSession(file).marks).toEqual([]);
  });
});
