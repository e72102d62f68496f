import { describe, expect, it } from 'vitest';
import type { ClientEvent, FinalMessage, ModelClient } from '../../../src/api/model-client.js';
import { emptyUsage } from '../../../src/base/usage.js';
import { runAgent } from '../../../src/core/agent-loop.js';
import { warmUpWhileWaiting } from '../../../src/core/warm-up.js';
import { bashTool } from '../../../src/tools/bash/index.js';
import { isBashParserReady } from '../../../src/tools/bash/parse.js';
import type { Tool } from '../../../src/base/tool.js';
import { agentOptions, fakeTool } from './fake-tools.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A model that says "ok" after `delayMs`. */
function slowClient(delayMs: number): ModelClient {
  return {
    stream: () =>
      (async function* (): AsyncGenerator<ClientEvent, FinalMessage, void> {
        await sleep(delayMs);
        yield { type: 'text', text: 'ok' };
        return { id: 'm', model: 'x', content: [{ type: 'text', text: 'ok' }], stopReason: 'end_turn', usage: emptyUsage(), truncated: false };
      })(),
  };
}

function warmable(): { tool: Tool; calls: () => number } {
  let calls = 0;
  const tool = { ...fakeTool({ name: 'W', safe: true }), warmUp: async () => void calls++ };
  return { tool, calls: () => calls };
}

async function run(delayMs: number, tools: Tool[]): Promise<void> {
  for await (const _ of runAgent([{ role: 'user', content: 'hi' }], agentOptions(slowClient(delayMs), { tools }))) {
    // drain
  }
}

describe('warm-up while the model thinks', () => {
  it('starts when the model is slow to answer, once a process', async () => {
    const w = warmable();
    await run(150, [w.tool]);
    expect(w.calls()).toBe(1);
    await run(150, [w.tool]);
    expect(w.calls()).toBe(1);
  });

  it('does not start when the answer comes at once', async () => {
    const w = warmable();
    await run(0, [w.tool]);
    await sleep(100);
    expect(w.calls()).toBe(0);
  });

  it('can be cancelled before it starts', async () => {
    const w = warmable();
    const stop = warmUpWhileWaiting([w.tool], 20);
    stop();
    await sleep(60);
    expect(w.calls()).toBe(0);
  });

  it("readies Bash's parser", async () => {
    await run(150, [bashTool as Tool]);
    for (let i = 0; i < 100 && !isBashParserReady(); i++) await sleep(20);
    expect(isBashParserReady()).toBe(true);
  });
});
