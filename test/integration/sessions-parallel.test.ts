/**
 * A session Claude Code 2.1.332 wrote with parallel tool calls (each call's result chained to its own
 * call, off the main chain), a thinking block, an error result and a refused call, resumed by the
 * built binary with -r and -c: the model gets the conversation Claude Code sends when it resumes it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir } from '../../src/session/paths.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'notes.txt': 'beta line\n' }, git: true });

const ID = '78460f15-cbb7-4024-beae-6fe21b3d734a';
const FIXTURE = path.resolve(__dirname, '../fixtures/sessions', `${ID}.jsonl`);

type Block = { type: string; id?: string; tool_use_id?: string; is_error?: boolean; text?: string; thinking?: string };
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
