// interrupt() during a long Bash call, and the SDK's AbortController: the command stops, nothing
// is left running, and (after an interrupt) the session goes on.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useApiAndProject, toolResultIn } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { alive, collect, PromptFeed, sdkQuery, waitUntil } from '../../support/sdk-harness.js';

const t = useApiAndProject();

/** Whether a process whose command line holds `marker` runs. */
function running(marker: string): boolean {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .some((l) => l.includes(marker) && !l.includes('ps -eo'));
}

describe('interrupt and abort', () => {
  it('interrupt() during a long Bash: answered before the result, the command stopped, the next message a normal turn', async () => {
    const marker = `sdk-interrupt-${process.pid}-${Date.now()}`;
    t.api.script(reply().toolUse('Bash', { command: `sleep 30 # ${marker}` }, { id: 'toolu_sleep' }), reply().text('second answer'));
    const feed = new PromptFeed();
    const { q, stderr } = sdkQuery(t, feed, { allowedTools: ['Bash'] });
    const order: string[] = [];
    feed.push('run it');
    const done = collect(q, stderr, async (m) => {
      if (m.type === 'result') {
        order.push(`result:${m.subtype}`);
        if (order.filter((o) => o.startsWith('result')).length === 1) feed.push('again');
        else feed.end();
      }
    });
    await waitUntil(() => running(marker), 15_000, 'the sleep to start');
    const answer = await q.interrupt();
    order.push('interrupt answered');
    expect(answer).toEqual({ still_queued: [] });
    const run = await done;
    expect(order).toEqual(['interrupt answered', 'result:error_during_execution', 'result:success']);
    expect(running(marker)).toBe(false);
    expect(run.error).toBeUndefined();
    expect(run.result?.result).toBe('second answer');
    expect(run.kinds.filter((k) => k === 'system/init')).toHaveLength(2);
    const [, second] = t.api.messageRequests().map((r) => r.body);
    expect(toolResultIn(second, 'toolu_sleep')).toBeTruthy();
    expect(JSON.stringify(second!.messages!.at(-1))).toContain('again');
  });

  it('AbortController: the iterator says aborted, and neither wicket nor its command is left behind', async () => {
    const marker = `sdk-abort-${process.pid}-${Date.now()}`;
    t.api.script(reply().toolUse('Bash', { command: `sleep 30 # ${marker}` }));
    const abortController = new AbortController();
    const { q, stderr } = sdkQuery(t, 'run it', { allowedTools: ['Bash'], abortController });
    const { pid } = (await q.initializationResult()) as unknown as { pid: number };
    const done = collect(q, stderr);
    await waitUntil(() => running(marker), 15_000, 'the sleep to start');
    abortController.abort();
    const run = await done;
    expect(run.error?.message).toMatch(/aborted/i);
    await waitUntil(() => !alive(pid) && !running(marker), 10_000, 'wicket and its command to end');
  });
});
