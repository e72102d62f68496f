/**
 * Session ids and what the Agent SDK lists, through the built binary, as Claude Code 2.1.332 does
 * them: a --session-id a saved session has is refused; --resume of an unknown id or title says what
 * Claude Code says; each prompt's run ends with a `last-prompt` record, which the SDK's listSessions
 * shows as the summary of an unnamed session.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listSessions } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { transcriptFile } from '../../src/session/paths.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' }, git: true });
const configDir = () => path.join(t.project.home, '.claude');

async function session(prompt: string, extra: string[] = []): Promise<string> {
  t.api.script(reply().text('ok'));
  const r = await t.run(['-p', prompt, '--output-format', 'json', ...extra]);
  expectExit(r, 0);
  return r.json<{ session_id: string }>().session_id;
}

describe('session ids as Claude Code takes them', () => {
  it('--session-id of a saved session is refused before any request; a new one is used', async () => {
    const id = await session('first');
    const r = await t.run(['-p', 'again', '--session-id', id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Session ID ${id} is already in use.`);
    expect(t.api.messageRequests()).toHaveLength(1);
    const fresh = '0b6f2c1e-8a1d-4c4e-9f3a-5d2e7c9b1a04';
    expect(await session('new one', ['--session-id', fresh])).toBe(fresh);
    // Resuming it under its own id is no clash.
    expect(await session('and on', ['--session-id', fresh, '-r', fresh])).toBe(fresh);
  });

  it('--resume of an unknown id or title: Claude Code’s words, exit 1, no request', async () => {
    const byId = await t.run(['-p', 'x', '--resume', '11111111-2222-3333-4444-555555555555']);
    expect(byId.code).toBe(1);
    expect(byId.stderr).toContain('No conversation found with session ID: 11111111-2222-3333-4444-555555555555');
    const byName = await t.run(['-p', 'x', '-r', 'no such name']);
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain('Provided value "no such name" is not a UUID and does not match any session title.');
    expect(t.api.messageRequests()).toHaveLength(0);
  });
});

describe('the summary the SDK lists', () => {
  it('is the last prompt, on one line and cut at 200 characters, until the session is named', async () => {
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = configDir();
    try {
      const id = await session('first prompt');
      const long = `second\nprompt ${'x'.repeat(300)}`;
      await session(long, ['-c']);
      const records = readFileSync(transcriptFile(configDir(), t.project.dir, id), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((r) => r.type === 'last-prompt');
      const cut = `${long.replace(/\s+/g, ' ').slice(0, 200)}\u2026`;
      expect(records.map((r) => r.lastPrompt)).toEqual(['first prompt', cut]);
      expect(await listSessions({ dir: t.project.dir })).toEqual([expect.objectContaining({ sessionId: id, summary: cut, firstPrompt: 'first prompt' })]);
      await session('third', ['-c', '-n', 'Named one']);
      expect((await listSessions({ dir: t.project.dir }))[0]).toMatchObject({ summary: 'Named one', customTitle: 'Named one' });
      // The name finds it, case aside, as Claude Code's -r does.
      expect(await session('fourth', ['-r', 'NAMED ONE'])).toBe(id);
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
    }
  });
});
