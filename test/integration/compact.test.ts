/** Compaction through the built binary: automatic when the context passes the threshold, hooks, resume. */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { autoCompactThreshold, CONTINUATION_PREFIX } from '../../src/core/compact.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });

// A 40,000-token window puts the threshold at 7,000 tokens.
const SMALL_WINDOW = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '40000' };
const run = (args: string[], env: Record<string, string> = SMALL_WINDOW, stdin?: string) => t.run(args, { env, ...(stdin ? { stdin } : {}) });
const bodies = () => t.api.messageRequests().map((r) => r.body as { messages: Array<{ role: string; content: any }>; tools: unknown[] });
const lastText = (m: { content: any }) => (typeof m.content === 'string' ? m.content : m.content.map((b: any) => b.text ?? '').join('\n'));

describe('automatic compaction', () => {
  it('summarises the conversation once the context passes the threshold, and goes on from the summary', async () => {
    t.api.script(
      reply()
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('SUMMARY: the user wants a.txt read; it says alpha.'),
      reply().text('a.txt says alpha.'),
    );
    const r = await run(['-p', 'read a.txt', '--allowedTools', 'Read', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const [first, summary, after] = bodies();
    expect(first!.messages).toHaveLength(1);
    // The summary request: the whole conversation, the same tools, and the request for a summary.
    expect(summary!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastText(summary!.messages[2]!)).toContain('Write that summary now. Do not call any tool');
    expect(summary!.tools).toEqual(first!.tools);
    // Then the conversation is the summary alone.
    expect(after!.messages).toHaveLength(1);
    expect(lastText(after!.messages[0]!)).toBe(`${CONTINUATION_PREFIX}\n\nSUMMARY: the user wants a.txt read; it says alpha.`);
    const boundary = r.lines<any>().find((l) => l.subtype === 'compact_boundary');
    expect(boundary).toMatchObject({ type: 'system', compact_metadata: { trigger: 'auto' } });
    expect(boundary.compact_metadata.pre_tokens).toBeGreaterThan(9000); // input plus the reply's own tokens
    expect(r.lines<any>().at(-1)).toMatchObject({ type: 'result', result: 'a.txt says alpha.' });
  });

  it('keeps a new prompt out of the summary, as the question at hand', async () => {
    t.api.script(reply().text('first answer').usage({ input_tokens: 9000 }), reply().text('SUMMARY'), reply().text('second answer'));
    const lines = ['first question', 'second question'].map((t) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } })).join('\n');
    const r = await run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], SMALL_WINDOW, `${lines}\n`);
    expectExit(r, 0);
    const [, summary, after] = bodies();
    expect(summary!.messages.map(lastText).join('|')).not.toContain('second question');
    expect(after!.messages).toHaveLength(1);
    expect(lastText(after!.messages[0]!)).toBe(`${CONTINUATION_PREFIX}\n\nSUMMARY\nsecond question`);
  });

  it('stays off below the threshold, with DISABLE_AUTO_COMPACT, and when a PreCompact hook blocks it', async () => {
    t.api.script(
      reply()
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') })
        .usage({ input_tokens: 6000 }),
      reply().text('done'),
    );
    expectExit(await run(['-p', 'read', '--allowedTools', 'Read']), 0);
    expect(bodies()).toHaveLength(2);
    t.api.script(
      reply()
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('done'),
    );
    expectExit(await run(['-p', 'read', '--allowedTools', 'Read'], { ...SMALL_WINDOW, DISABLE_AUTO_COMPACT: '1' }), 0);
    expect(bodies()).toHaveLength(4);
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(
      path.join(t.project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: 'echo "not now" >&2; exit 2' }] }] } }),
    );
    t.api.script(
      reply()
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('done'),
    );
    const blocked = await run(['-p', 'read', '--allowedTools', 'Read', '--output-format', 'stream-json', '--verbose']);
    expectExit(blocked, 0);
    expect(bodies()).toHaveLength(6);
    expect(blocked.lines<any>().some((l) => l.subtype === 'informational' && /not compacted: a PreCompact hook blocked it: not now/.test(l.message))).toBe(
      true,
    );
  });

  it('a resumed session starts from the summary', async () => {
    t.api.script(
      reply()
        .toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('THE SUMMARY'),
      reply().text('ok'),
      reply().text('resumed'),
    );
    expectExit(await run(['-p', 'read', '--allowedTools', 'Read']), 0);
    const dir = path.join(t.project.home, '.claude', 'projects');
    const [slug] = readdirSync(dir);
    const [file] = readdirSync(path.join(dir, slug!));
    expectExit(await run(['-p', 'and now?', '--resume', file!.replace(/\.jsonl$/, '')]), 0);
    const resumed = bodies().at(-1)!;
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastText(resumed.messages[0]!)).toBe(`${CONTINUATION_PREFIX}\n\nTHE SUMMARY`);
    expect(lastText(resumed.messages[2]!)).toBe('and now?');
  });
});

describe('a request too long for the context', () => {
  it('is compacted (long tool results cut in the summary request) and retried once', async () => {
    const big = `${'line of a big file\n'.repeat(1000)}`;
    writeFileSync(path.join(t.project.dir, 'big.txt'), big);
    t.api.script(
      reply().toolUse('Read', { file_path: path.join(t.project.dir, 'big.txt') }, { id: 'toolu_r' }),
      reply().error(400, { message: 'prompt is too long: 212000 tokens > 200000 maximum' }),
      reply().text('SUMMARY of the big file'),
      reply().text('The file repeats one line.'),
    );
    const r = await run(['-p', 'what is in big.txt?', '--allowedTools', 'Read', '--output-format', 'json'], {});
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('The file repeats one line.');
    const [, tooLong, summary, retried] = bodies();
    expect(JSON.stringify(tooLong!.messages)).toContain('line of a big file');
    const cutResult = JSON.stringify(summary!.messages);
    expect(cutResult).toContain('more characters left out to fit the context');
    expect(cutResult.length).toBeLessThan(JSON.stringify(tooLong!.messages).length / 2);
    expect(retried!.messages).toHaveLength(1);
    expect(lastText(retried!.messages[0]!)).toContain('SUMMARY of the big file');
  });

  it('fails with the API’s sentence when the compacted request is still too long', async () => {
    t.api.script(
      reply().text('first').usage({ input_tokens: 10 }),
      reply().error(400, { message: 'prompt is too long: 212000 tokens > 200000 maximum' }),
      reply().text('SUMMARY'),
      reply().error(400, { message: 'prompt is too long: 205000 tokens > 200000 maximum' }),
    );
    const lines = ['one', 'two'].map((t) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } })).join('\n');
    const r = await run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {}, `${lines}\n`);
    expect(r.code).toBe(1);
    const result = r.lines<any>().at(-1);
    expect(result).toMatchObject({ type: 'result', is_error: true });
    expect(JSON.stringify(result)).toContain('prompt is too long: 205000 tokens');
  });
});

describe('autoCompactThreshold', () => {
  it('is the window less room for the summary, lowered (never raised) by the percentage override, off when disabled', () => {
    expect(autoCompactThreshold({}, {})).toBe(167_000);
    expect(autoCompactThreshold({ CLAUDE_CODE_AUTO_COMPACT_WINDOW: '500000' }, {})).toBe(467_000);
    expect(autoCompactThreshold({}, { autoCompactWindow: 300_000 })).toBe(267_000);
    expect(autoCompactThreshold({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '50' }, {})).toBe(100_000);
    expect(autoCompactThreshold({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: '99' }, {})).toBe(167_000);
    expect(autoCompactThreshold({ DISABLE_AUTO_COMPACT: '1' }, {})).toBeUndefined();
    expect(autoCompactThreshold({ DISABLE_COMPACT: 'true' }, {})).toBeUndefined();
    expect(autoCompactThreshold({}, { autoCompactEnabled: false })).toBeUndefined();
    expect(autoCompactThreshold({ DISABLE_AUTO_COMPACT: '0' }, {})).toBe(167_000);
  });
});
