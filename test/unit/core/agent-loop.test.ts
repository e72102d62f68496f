import { describe, expect, it } from 'vitest';
import type { ClientEvent, FinalMessage, ModelClient, ModelRequest } from '../../../src/api/model-client.js';
import { emptyUsage } from '../../../src/base/usage.js';
import { runAgent } from '../../../src/core/agent-loop.js';
import { unansweredToolUses } from '../../../src/base/conversation.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../../../src/base/events.js';
import { FatalError } from '../../../src/base/errors.js';
import { noHooks } from '../../../src/hooks/types.js';
import { agentOptions as options, gate } from './fake-tools.js';

type Turn = (req: ModelRequest, signal: AbortSignal) => AsyncGenerator<ClientEvent, FinalMessage, void>;

function textTurn(text: string): Turn {
  return async function* () {
    yield { type: 'text', text };
    return { id: 'm', model: 'x', content: [{ type: 'text', text }], stopReason: 'end_turn', usage: emptyUsage(), truncated: false };
  };
}

function toolTurn(calls: Array<{ id: string; name: string; input: unknown }>, hang?: Promise<void>): Turn {
  return async function* () {
    for (const c of calls) yield { type: 'tool_use', toolUse: c };
    if (hang) await hang;
    const content: ContentBlock[] = calls.map((c) => ({ type: 'tool_use', ...c }));
    return { id: 'm', model: 'x', content, stopReason: 'tool_use', usage: emptyUsage(), truncated: false };
  };
}

function client(turns: Turn[], requests: ModelRequest[] = []): ModelClient {
  return {
    stream(req, signal) {
      requests.push(structuredClone(req));
      const t = turns.shift();
      if (!t) throw new Error('script exhausted');
      return t(req, signal);
    },
  };
}

async function collect(gen: AsyncGenerator<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of gen) out.push(e);
  return out;
}

describe('runAgent', () => {
  it('ends when the model answers with text only', async () => {
    const messages: ApiMessage[] = [{ role: 'user', content: 'hi' }];
    const events = await collect(runAgent(messages, options(client([textTurn('hello')]))));
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', numTurns: 1, finalText: 'hello' });
    expect(messages).toHaveLength(2);
  });

  it('runs tools and answers every tool_use, in order, before the next request', async () => {
    const requests: ModelRequest[] = [];
    const messages: ApiMessage[] = [{ role: 'user', content: 'go' }];
    const turns = [
      toolTurn([
        { id: 'a', name: 'R', input: { id: '1' } },
        { id: 'b', name: 'Nope', input: {} },
      ]),
      textTurn('done'),
    ];
    await collect(runAgent(messages, options(client(turns, requests))));
    const results = (requests[1]!.messages[2]!.content as ContentBlock[]).map((b: any) => b.tool_use_id);
    expect(results).toEqual(['a', 'b']);
    expect(unansweredToolUses(messages)).toEqual([]);
  });

  it('stops at maxTurns', async () => {
    const turns = [toolTurn([{ id: 'a', name: 'R', input: { id: '1' } }]), toolTurn([{ id: 'b', name: 'R', input: { id: '2' } }])];
    const events = await collect(runAgent([{ role: 'user', content: 'go' }], options(client(turns), { maxTurns: 1 })));
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'max_turns' });
  });

  it('on abort mid-stream, answers the calls already started and leaves a valid conversation', async () => {
    const ac = new AbortController();
    const hang = gate();
    const messages: ApiMessage[] = [{ role: 'user', content: 'go' }];
    const turn: Turn = async function* (_req, signal) {
      yield { type: 'text', text: 'working' };
      yield { type: 'tool_use', toolUse: { id: 'a', name: 'R', input: { id: '1' } } };
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      await hang.promise;
      throw new Error('unreachable');
    };
    const gen = runAgent(messages, options(client([turn]), { signal: ac.signal }));
    const events: AgentEvent[] = [];
    for await (const e of gen) {
      events.push(e);
      if (e.type === 'tool_request') ac.abort('SIGINT');
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'aborted' });
    expect(unansweredToolUses(messages)).toEqual([]);
    expect(messages.at(-1)!.role).toBe('user');
  });

  it('a fatal API error ends the run with a clear message and a valid conversation', async () => {
    const turn: Turn = async function* () {
      throw new FatalError('auth', 'authentication failed (401)');
    };
    const messages: ApiMessage[] = [{ role: 'user', content: 'go' }];
    const events = await collect(runAgent(messages, options(client([turn]))));
    expect(events.find((e) => e.type === 'error')).toMatchObject({ message: 'authentication failed (401)' });
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'error' });
  });

  it('collects URLs the user gave and tools returned as seen', async () => {
    const seen = new Set<string>();
    const messages: ApiMessage[] = [{ role: 'user', content: 'look at https://example.com/docs.' }];
    await collect(runAgent(messages, options(client([textTurn('ok')]), { seenUrls: seen })));
    expect(seen.has('https://example.com/docs')).toBe(true);
  });

  it('a Stop hook can send the model back to work, at most 8 times', async () => {
    let stops = 0;
    const hooks = { ...noHooks, stop: async () => ({ block: `again ${++stops}` }) };
    const turns = Array.from({ length: 9 }, () => textTurn('x'));
    const events = await collect(runAgent([{ role: 'user', content: 'go' }], options(client(turns), { hooks })));
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed', numTurns: 9 });
  });
});
