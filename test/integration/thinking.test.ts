/** Extended thinking through the built binary: alwaysThinkingEnabled and MAX_THINKING_TOKENS, as in Claude Code. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { thinkingBudget } from '../../src/core/setup/session-setup.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
const run = (args: string[], env: Record<string, string> = {}) => t.run(args, { env });
type Body = { max_tokens: number; thinking?: unknown; messages: Array<{ role: string; content: any }> };

describe('extended thinking', () => {
  it('alwaysThinkingEnabled turns it on with Claude Code’s budget, and thinking blocks go back unchanged', async () => {
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ alwaysThinkingEnabled: true }));
    t.api.script(
      reply()
        .thinking('I should read a.txt.', 'sig-1')
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') }),
      reply().text('It says alpha.'),
    );
    expectExit(await run(['-p', 'what is in a.txt?', '--allowedTools', 'Read']), 0);
    const [first, second] = t.api.messageRequests();
    expect((first!.body as Body).thinking).toEqual({ type: 'enabled', budget_tokens: 31_999 });
    expect((first!.body as Body).max_tokens).toBe(39_999);
    expect(String(first!.headers['anthropic-beta'])).toContain('interleaved-thinking-2025-05-14');
    const assistant = (second!.body as Body).messages[1]!;
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: 'I should read a.txt.', signature: 'sig-1' });
  });

  it('MAX_THINKING_TOKENS sets the budget, 0 turns it off, and it is off by default', async () => {
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', 'hi'], { MAX_THINKING_TOKENS: '5000' }), 0);
    expectExit(await run(['-p', 'hi'], { MAX_THINKING_TOKENS: '0' }), 0);
    expectExit(await run(['-p', 'hi']), 0);
    const [five, zero, none] = t.api.messageRequests().map((r) => r.body as Body);
    expect(five).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 5000 }, max_tokens: 32_000 });
    expect(zero!.thinking).toBeUndefined();
    expect(none!.thinking).toBeUndefined();
    expect(t.api.messageRequests()[2]!.headers['anthropic-beta']).toBeUndefined();
  });

  it('thinkingBudget reads the variable before the setting', () => {
    expect(thinkingBudget({}, {})).toBeUndefined();
    expect(thinkingBudget({}, { alwaysThinkingEnabled: true })).toBe(31_999);
    expect(thinkingBudget({ MAX_THINKING_TOKENS: '2048' }, { alwaysThinkingEnabled: false })).toBe(2048);
    expect(thinkingBudget({ MAX_THINKING_TOKENS: '0' }, { alwaysThinkingEnabled: true })).toBeUndefined();
    expect(thinkingBudget({ MAX_THINKING_TOKENS: 'lots' }, { alwaysThinkingEnabled: true })).toBe(31_999);
  });
});
