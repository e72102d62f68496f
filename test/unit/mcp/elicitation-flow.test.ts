import { describe, expect, it, vi } from 'vitest';
import { elicitationFlow, type ElicitationRequest } from '../../../src/mcp/elicitation.js';
import { noHooks, type Hooks } from '../../../src/hooks/types.js';

const req: ElicitationRequest = {
  server: 'forms',
  message: 'Name?',
  mode: 'form',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
};
const signal = new AbortController().signal;

function hooks(over: Partial<Hooks>): { hooks: Hooks; notes: string[] } {
  const notes: string[] = [];
  return { notes, hooks: { ...noHooks, notification: async (n) => void notes.push(`${n.notificationType}: ${n.message}`), ...over } };
}

describe('the elicitation flow', () => {
  it('an Elicitation hook answers: nobody is asked and no result hook runs', async () => {
    const ask = vi.fn();
    const result = vi.fn();
    const h = hooks({ elicitation: async () => ({ action: 'accept', content: { name: 'Ada', deep: { x: 1 } } }), elicitationResult: result });
    const flow = elicitationFlow({ hooks: () => h.hooks, ask });
    expect(await flow.elicit(req, signal)).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(ask).not.toHaveBeenCalled();
    expect(result).not.toHaveBeenCalled();
  });

  it('asks the person, tells Notification hooks, and lets an ElicitationResult hook change the answer', async () => {
    const seen: unknown[] = [];
    const h = hooks({ elicitationResult: async (info) => (seen.push(info), { action: 'accept', content: { name: 'Grace' } }) });
    const flow = elicitationFlow({ hooks: () => h.hooks, ask: async () => ({ action: 'decline' }) });
    expect(await flow.elicit(req, signal)).toEqual({ action: 'accept', content: { name: 'Grace' } });
    expect(seen).toEqual([{ server: 'forms', mode: 'form', action: 'decline' }]);
    await flow.settled();
    expect(h.notes).toEqual([
      'elicitation_dialog: MCP server "forms" requests your input',
      'elicitation_response: Elicitation response for server "forms": accept',
    ]);
  });

  it('a declining result hook keeps no content; an ask that fails cancels', async () => {
    const h = hooks({ elicitationResult: async () => ({ action: 'decline', blocked: 'no' }) });
    const flow = elicitationFlow({ hooks: () => h.hooks, ask: async () => ({ action: 'accept', content: { name: 'Ada' } }) });
    expect(await flow.elicit(req, signal)).toEqual({ action: 'decline' });
    const failing = elicitationFlow({ hooks: () => noHooks, ask: async () => Promise.reject(new Error('gone')) });
    expect(await failing.elicit(req, signal)).toEqual({ action: 'cancel' });
  });

  it('where nobody can answer, cancels and says so', async () => {
    const notes: string[] = [];
    const flow = elicitationFlow({ hooks: () => noHooks, note: (n) => notes.push(n) });
    expect(await flow.elicit({ ...req, mode: 'url', url: 'https://x.test', elicitationId: 'e' }, signal)).toEqual({ action: 'cancel' });
    expect(notes[0]).toContain('nobody can answer in print mode');
  });

  it('a server’s completion notice reaches Notification hooks and the listener', async () => {
    const h = hooks({});
    const done = vi.fn();
    const flow = elicitationFlow({ hooks: () => h.hooks, onComplete: done });
    flow.complete('forms', 'e1');
    await flow.settled();
    expect(h.notes).toEqual(['elicitation_complete: MCP server "forms" confirmed elicitation e1 complete']);
    expect(done).toHaveBeenCalledWith('forms', 'e1');
  });
});
