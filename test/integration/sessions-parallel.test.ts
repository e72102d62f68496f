/**
 * A session Claude Code 2.1.332 wrote with parallel tool calls (each call's result chained to its own
 * call, off the main chain), a thinking block, an error result and a refused call, resumed by the
 * built binary with -r and -c: the model gets the conversation Claude Code sends when it resumes it;
 * and a wicket session of the same variety, which the SDK reads as the API got it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSessionMessages } from '@anthropic-ai/claude-agent-sdk';
import { projectSessionsDir } from '../../src/session/paths.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'notes.txt': 'beta line\n' }, git: true });

const ID = '78460f15-cbb7-4024-beae-6fe21b3d734a';
const FIXTURE = path.resolve(__dirname, '../fixtures/sessions', `${ID}.jsonl`);

type Block = { type: string; id?: string; tool_use_id?: string; is_error?: boolean; text?: string; thinking?: string; content?: unknown };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };

/** Each message as its role and blocks in short: `text:…`, `thinking`, `use:<id>`, `result:<id>[!]`. */
function shape(body: Body): string[] {
  return body.messages.map((m) => {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const words = blocks
      .filter((b) => !(b.type === 'text' && b.text?.startsWith('<system-reminder>')))
      .map((b) =>
        b.type === 'text'
          ? `text:${b.text}`
          : b.type === 'tool_use'
            ? `use:${b.id}`
            : b.type === 'tool_result'
              ? `result:${b.tool_use_id}${b.is_error ? '!' : ''}`
              : b.type,
      );
    return `${m.role} ${words.join(' ')}`;
  });
}

/** What Claude Code 2.1.332 sent on `claude -p --resume <id> "next"` of its own session (reminders aside). */
const CLAUDE_CODE_SENT = [
  'user text:Look at notes',
  'assistant thinking text:Reading both. use:toolu_read2 use:toolu_read1',
  'user result:toolu_read2! result:toolu_read1',
  'assistant use:toolu_edit1',
  'user result:toolu_edit1',
  'assistant use:toolu_bash1 use:toolu_bash2',
  'user result:toolu_bash1 result:toolu_bash2!',
  'assistant text:All done.',
  'user text:next',
];

function place(projectPath: string): string {
  const dir = projectSessionsDir(path.join(t.project.home, '.claude'), projectPath);
  mkdirSync(dir, { recursive: true });
  copyFileSync(FIXTURE, path.join(dir, `${ID}.jsonl`));
  return dir;
}

describe('a Claude Code session with parallel tool calls', () => {
  it('-r <id> sends every result of the parallel calls, in the order Claude Code wrote them', async () => {
    place('/tmp/sp/P');
    t.api.script(reply().text('Next done.'));
    const r = await t.run(['-p', 'next', '-r', ID, '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<{ session_id: string }>().session_id).toBe(ID);
    const body = t.api.messageRequests().at(-1)!.body as Body;
    expect(shape(body)).toEqual(CLAUDE_CODE_SENT);
    t.api.assertNoViolations();
  });

  it('-c finds it in the project and goes on from all of it; the next resume has the turn wicket added', async () => {
    place(t.project.dir);
    t.api.script(reply().text('Next done.'), reply().text('Again.'));
    expectExit(await t.run(['-p', 'next', '-c']), 0);
    expect(shape(t.api.messageRequests().at(-1)!.body as Body)).toEqual(CLAUDE_CODE_SENT);
    expectExit(await t.run(['-p', 'again', '-c']), 0);
    expect(shape(t.api.messageRequests().at(-1)!.body as Body)).toEqual([...CLAUDE_CODE_SENT, 'assistant text:Next done.', 'user text:again']);
    t.api.assertNoViolations();
  });
});

describe('a wicket session with the same variety', () => {
  it('is read by the SDK as the API got it, and resumed with the same history', async () => {
    const notes = t.project.path('notes.txt');
    t.api.script(
      reply()
        .thinking('I should look at the files.', 'sig-abc')
        .text('Reading both.')
        .toolUse('Read', { file_path: t.project.path('missing.txt') }, { id: 'toolu_read2' })
        .toolUse('Read', { file_path: notes }, { id: 'toolu_read1' }),
      reply().toolUse('Edit', { file_path: notes, old_string: 'beta line', new_string: 'gamma line' }, { id: 'toolu_edit1' }),
      reply()
        .toolUse('Bash', { command: 'cat notes.txt', description: 'Show notes' }, { id: 'toolu_bash1' })
        .toolUse('Bash', { command: 'rm notes.txt', description: 'Remove notes' }, { id: 'toolu_bash2' }),
      reply().text('All done.'),
      reply().text('Next done.'),
    );
    const r = await t.run(['-p', 'Look at notes', '--allowedTools', 'Read', 'Edit', 'Bash(cat:*)', '--output-format', 'json']);
    expectExit(r, 0);
    const id = r.json<{ session_id: string }>().session_id;
    expectExit(await t.run(['-p', 'next', '-r', id]), 0);
    const sent = t.api.messageRequests().at(-1)!.body as Body;
    expect(shape(sent)).toEqual(CLAUDE_CODE_SENT);
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = path.join(t.project.home, '.claude');
    try {
      const read = await getSessionMessages(id, { dir: t.project.dir });
      // The SDK gives the records as written: the messages sent before the new turn, in order.
      const history = sent.messages.slice(0, -1);
      expect(read.slice(0, history.length).map((m) => (m.message as { content: unknown }).content)).toEqual(
        history.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => ({ ...b })))),
      );
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
    }
    t.api.assertNoViolations();
  });
});
