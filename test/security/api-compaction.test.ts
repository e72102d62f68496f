/**
 * A compaction that fails in print mode ends the run as an error (is_error, exit 1), never as a
 * success: when the summary request fails or goes silent, or when the reply is not a summary (a
 * tool call nothing would answer, a reply cut off or empty). Every tool_use the session sent is
 * answered (the fake API checks each request), and no request follows the failed compaction.
 */
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply, type ReplyBuilder } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });

// A 40,000-token window puts the automatic threshold at 7,000 tokens.
const ENV = {
  CLAUDE_CODE_AUTO_COMPACT_WINDOW: '40000',
  WICKET_API_IDLE_TIMEOUT_MS: '250',
  WICKET_RETRY_BASE_DELAY_MS: '1',
  WICKET_RETRY_MAX_DELAY_MS: '5',
  WICKET_MAX_RETRIES: '2',
};
const run = (args: string[]) => t.run(args, { env: ENV });

/** A first turn that reads a.txt and fills the context past the threshold, then `summary` as the summary request's replies. */
function script(...summary: ReplyBuilder[]): void {
  t.api.script(
    reply()
      .toolUse('Read', { file_path: t.project.path('a.txt') }, { id: 'toolu_read' })
      .usage({ input_tokens: 9000 }),
    ...summary,
    reply().text('must not be asked'),
  );
}

/** Every tool_use in every request has its tool_result, and the summary request was the last one. */
function expectEndedAtTheSummary(requests: number): void {
  const sent = t.api.messageRequests();
  expect(sent).toHaveLength(requests);
  expect(JSON.stringify(sent.at(-1)!.body.messages)).toContain('Write that summary now');
  expect(t.api.pending()).toBe(1); // "must not be asked" was not
  t.api.assertNoViolations();
}

const NOT_A_SUMMARY = 'the conversation could not be compacted: the model answered the request for a summary with a tool call instead of a summary';

describe('compaction fails in print mode', () => {
  it('the reply is a tool call: json output, is_error and exit 1', async () => {
    script(
      reply()
        .text('Let me look first.')
        .toolUse('Read', { file_path: t.project.path('a.txt') }),
    );
    const r = await run(['-p', 'read a.txt', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.json<any>()).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, errors: [NOT_A_SUMMARY] });
    expectEndedAtTheSummary(2);
  });

  it('the reply is a tool call: stream-json output ends with an error result and no compact boundary', async () => {
    script(reply().toolUse('Bash', { command: 'touch ran-from-summary' }));
    const r = await run(['-p', 'read a.txt', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash']);
    expect(r.code).toBe(1);
    const lines = r.lines<any>();
    expect(lines.some((l) => l.subtype === 'compact_boundary')).toBe(false);
    expect(lines.at(-1)).toMatchObject({ type: 'result', is_error: true, errors: [NOT_A_SUMMARY] });
    expect(t.project.exists('ran-from-summary')).toBe(false);
    expectEndedAtTheSummary(2);
  });

  it('the reply is empty: text output, the reason on stderr', async () => {
    script(reply().text(''));
    const r = await run(['-p', 'read a.txt']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('wicket: the conversation could not be compacted: the model returned an empty summary');
    expectEndedAtTheSummary(2);
  });

  it('the reply was cut off at the output limit', async () => {
    script(reply().text('## 1. What the user asked for').stopReason('max_tokens'));
    const r = await run(['-p', 'read a.txt', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.json<any>().errors).toEqual(['the conversation could not be compacted: the summary was cut off at the output limit']);
    expectEndedAtTheSummary(2);
  });

  it('the request fails every time', async () => {
    script(reply().error(500), reply().error(500), reply().error(500));
    const r = await run(['-p', 'read a.txt', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.json<any>().errors).toEqual(['the conversation could not be compacted: the API failed after 3 attempts (500): fake api_error']);
    expectEndedAtTheSummary(4);
  });

  it('the request goes silent every time', async () => {
    script(reply().hangAfterHeaders(), reply().hangAfterHeaders(), reply().hangAfterHeaders());
    const r = await run(['-p', 'read a.txt', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.json<any>().errors).toEqual([
      'the conversation could not be compacted: the API sent nothing for 250 ms in the middle of its answer (WICKET_API_IDLE_TIMEOUT_MS); tried 3 times',
    ]);
    expectEndedAtTheSummary(4);
  });

  it('after a request too long for the context, the error says why it could not be compacted', async () => {
    t.api.script(
      reply().toolUse('Read', { file_path: t.project.path('a.txt') }, { id: 'toolu_read' }),
      reply().error(400, { message: 'prompt is too long: 212000 tokens > 200000 maximum' }),
      reply().toolUse('Read', { file_path: t.project.path('a.txt') }),
      reply().text('must not be asked'),
    );
    const r = await t.run(['-p', 'read a.txt', '--output-format', 'json'], { env: { WICKET_MAX_RETRIES: '0' } });
    expect(r.code).toBe(1);
    const [error] = r.json<any>().errors;
    expect(error).toContain('prompt is too long: 212000 tokens');
    expect(error).toContain('(the conversation could not be compacted: the model answered the request for a summary with a tool call instead of a summary)');
    expect(t.api.messageRequests()).toHaveLength(3);
    t.api.assertNoViolations();
  });
});

describe('what still goes on', () => {
  it('a good summary: the run goes on from it and succeeds', async () => {
    t.api.script(
      reply()
        .toolUse('Read', { file_path: t.project.path('a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('SUMMARY: a.txt says alpha.'),
      reply().text('alpha'),
    );
    const r = await run(['-p', 'read a.txt', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>()).toMatchObject({ is_error: false, result: 'alpha' });
  });
});
