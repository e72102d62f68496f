/**
 * Sessions whose conversation ends on a user record, through the built binary, as Claude Code 2.1.332
 * resumes them: an interrupted Claude Code session goes on after the stand-in reply "No response
 * requested." (written to the file, and sent again on later resumes); a run the turn limit stopped is
 * marked with Claude Code's `max_turns_reached` attachment, and goes on without one.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectSessionsDir, transcriptFile } from '../../src/session/paths.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'notes.txt': 'alpha\n' }, git: true });
const configDir = () => path.join(t.project.home, '.claude');

const ID = '16973b8c-84ea-497f-bf12-c99f3cbe8426';
const FIXTURE = path.resolve(__dirname, '../fixtures/sessions', `${ID}.jsonl`);

type Block = { type: string; id?: string; tool_use_id?: string; text?: string };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };

/** Each message as its role and blocks in short: `text:…` (cut at 40), `use:<id>`, `result:<id>`. */
function shape(body: Body): string[] {
  return body.messages.map((m) => {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const words = blocks
      .filter((b) => !(b.type === 'text' && b.text?.startsWith('<system-reminder>')))
      .map((b) => (b.type === 'text' ? `text:${b.text!.slice(0, 40)}` : b.type === 'tool_use' ? `use:${b.id}` : `result:${b.tool_use_id}`));
    return `${m.role} ${words.join(' ')}`;
  });
}
const lastShape = () => shape(t.api.messageRequests().at(-1)!.body as Body);
const records = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** What Claude Code 2.1.332 sent on `claude -p -r <id> "next"` of this session (reminders aside). */
const CLAUDE_CODE_SENT = [
  'user text:wait',
  'assistant text:Waiting. use:toolu_sl1',
  'user result:toolu_sl1 text:[Request interrupted by user for tool us',
  'assistant text:No response requested.',
  'user text:next',
];

describe('a conversation that ends on a user record', () => {
  it('an interrupted Claude Code session goes on after "No response requested.", which the file keeps and later resumes send', async () => {
    const dir = projectSessionsDir(configDir(), t.project.dir);
    mkdirSync(dir, { recursive: true });
    copyFileSync(FIXTURE, path.join(dir, `${ID}.jsonl`));
    t.api.script(reply().text('Next done.'), reply().text('Again.'));
    expectExit(await t.run(['-p', 'next', '-r', ID]), 0);
    expect(lastShape()).toEqual(CLAUDE_CODE_SENT);
    const synthetic = records(path.join(dir, `${ID}.jsonl`)).filter((r) => r.type === 'assistant' && r.message.model === '<synthetic>');
    expect(synthetic.map((r) => r.message.content)).toEqual([[{ type: 'text', text: 'No response requested.' }]]);
    expectExit(await t.run(['-p', 'again', '-c']), 0);
    expect(lastShape()).toEqual([...CLAUDE_CODE_SENT, 'assistant text:Next done.', 'user text:again']);
    t.api.assertNoViolations();
  });

  it('a run stopped by --max-turns after a tool call is marked as Claude Code marks it, and goes on from the results', async () => {
    t.api.script(
      reply()
        .text('Reading.')
        .toolUse('Read', { file_path: t.project.path('notes.txt') }, { id: 'toolu_mt1' }),
    );
    const r = await t.run(['-p', 'read it', '--max-turns', '1', '--allowedTools', 'Read', '--output-format', 'json']);
    const id = r.json<{ session_id: string }>().session_id;
    const file = transcriptFile(configDir(), t.project.dir, id);
    const mark = records(file).find((x) => x.type === 'attachment');
    expect(mark).toMatchObject({ attachment: { type: 'max_turns_reached', maxTurns: 1, turnCount: 2 }, sessionId: id });
    expect(records(file).find((x) => x.type === 'last-prompt')).toMatchObject({ lastPrompt: 'read it', leafUuid: mark.uuid });
    t.api.script(reply().text('Next done.'));
    expectExit(await t.run(['-p', 'next', '-r', id]), 0);
    expect(lastShape()).toEqual(['user text:read it', 'assistant text:Reading. use:toolu_mt1', 'user result:toolu_mt1 text:next']);
    t.api.assertNoViolations();
  });
});
