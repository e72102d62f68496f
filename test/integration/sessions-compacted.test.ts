/**
 * A session Claude Code 2.1.332 compacted (`/compact`, which kept the newest reply as it was), resumed
 * by the built binary: the model gets what Claude Code sends when it resumes it — the summary, the
 * kept reply, then the local command's lines and the new prompt as one message, each text before
 * another ending with a line break.
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
const FIXTURE = path.resolve(__dirname, '../fixtures/sessions/compacted', `${ID}.jsonl`);

type Block = { type: string; text?: string };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };

describe('a session Claude Code compacted', () => {
  it('goes on from the summary and the reply the compaction kept, as Claude Code sends it', async () => {
    const dir = projectSessionsDir(path.join(t.project.home, '.claude'), t.project.dir);
    mkdirSync(dir, { recursive: true });
    copyFileSync(FIXTURE, path.join(dir, `${ID}.jsonl`));
    t.api.script(reply().text('Next done.'));
    expectExit(await t.run(['-p', 'next', '-r', ID]), 0);
    const body = t.api.messageRequests().at(-1)!.body as Body;
    const blocks = body.messages.map((m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content));
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(blocks[0]!.some((b) => b.text?.startsWith('This session is being continued from a previous conversation'))).toBe(true);
    expect(blocks[0]!.map((b) => b.text).join('')).toContain('We looked at notes.');
    expect(blocks[1]).toEqual([{ type: 'text', text: 'All done.' }]);
    const last = blocks[2]!.filter((b) => !b.text?.startsWith('<system-reminder>')).map((b) => b.text);
    expect(last).toEqual([
      "<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request, and its output goes straight to the user. It's recorded here as context for later messages.</local-command-caveat>\n",
      '<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>\n',
      '<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>\n',
      'next',
    ]);
    t.api.assertNoViolations();
  });
});
