import { describe, expect, it } from 'vitest';
import { ControlChannel, ControlError, type ControlPayload } from '../../../src/sdk/control-channel.js';
import { SdkSession } from '../../../src/sdk/session.js';

function channel() {
  const sent: ControlPayload[] = [];
  let n = 0;
  const ch = new ControlChannel({ send: (m) => void sent.push(m), newId: () => `req-${++n}` });
  return { ch, sent };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('ControlChannel: wicket asks the SDK', () => {
  it('writes a control_request and resolves with the success payload of the matching response', async () => {
    const { ch, sent } = channel();
    const answer = ch.request('can_use_tool', { tool_name: 'Bash', input: { command: 'ls' } });
    expect(sent).toEqual([{ type: 'control_request', request_id: 'req-1', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'ls' } } }]);
    // An answer to another id changes nothing.
    expect(ch.receive({ type: 'control_response', response: { subtype: 'success', request_id: 'other', response: { behavior: 'deny' } } })).toBe(true);
    ch.receive({ type: 'control_response', response: { subtype: 'success', request_id: 'req-1', response: { behavior: 'allow' } } });
    await expect(answer).resolves.toEqual({ behavior: 'allow' });
    expect(ch.pending).toBe(0);
  });

  it('rejects with the error text of an error response', async () => {
    const { ch } = channel();
    const answer = ch.request('hook_callback', { callback_id: 'hook_0' });
    ch.receive({ type: 'control_response', response: { subtype: 'error', request_id: 'req-1', error: 'canUseTool exploded' } });
    await expect(answer).rejects.toThrow('canUseTool exploded');
  });

  it('an aborted signal sends control_cancel_request, rejects, and a late answer is dropped', async () => {
    const { ch, sent } = channel();
    const ctl = new AbortController();
    const answer = ch.request('can_use_tool', {}, { signal: ctl.signal });
    ctl.abort(new Error('interrupted'));
    await expect(answer).rejects.toThrow('interrupted');
    expect(sent[1]).toEqual({ type: 'control_cancel_request', request_id: 'req-1' });
    ch.receive({ type: 'control_response', response: { subtype: 'success', request_id: 'req-1', response: { behavior: 'allow' } } });
    expect(ch.pending).toBe(0);
    // Already aborted: nothing is written.
    await expect(ch.request('can_use_tool', {}, { signal: ctl.signal })).rejects.toThrow('interrupted');
    expect(sent).toHaveLength(2);
  });

  it('cancelAll withdraws every outstanding request', async () => {
    const { ch, sent } = channel();
    const a = ch.request('can_use_tool', {});
    const b = ch.request('hook_callback', {});
    ch.cancelAll('interrupt');
    await expect(a).rejects.toThrow(/can_use_tool.*cancelled: interrupt/);
    await expect(b).rejects.toThrow(/hook_callback.*cancelled: interrupt/);
    expect(sent.slice(2)).toEqual([
      { type: 'control_cancel_request', request_id: 'req-1' },
      { type: 'control_cancel_request', request_id: 'req-2' },
    ]);
  });

  it('after close(), pending and new requests fail (fail-closed), without writing cancels', async () => {
    const { ch, sent } = channel();
    const a = ch.request('can_use_tool', {});
    ch.close('stdin ended');
    await expect(a).rejects.toThrow(/did not answer can_use_tool: stdin ended/);
    await expect(ch.request('can_use_tool', {})).rejects.toThrow(/cannot be asked/);
    expect(sent).toHaveLength(1);
  });
});

describe('ControlChannel: the SDK asks wicket', () => {
  it('answers with the handler value under the same request_id ({} for undefined)', async () => {
    const { ch, sent } = channel();
    ch.onRequest('set_permission_mode', (req) => ({ mode: req.mode }));
    ch.onRequest('set_model', () => undefined);
    expect(ch.receive({ type: 'control_request', request_id: 'a1', request: { subtype: 'set_permission_mode', mode: 'plan' } })).toBe(true);
    ch.receive({ type: 'control_request', request_id: 'a2', request: { subtype: 'set_model', model: 'opus' } });
    await tick();
    expect(sent).toEqual([
      { type: 'control_response', response: { subtype: 'success', request_id: 'a1', response: { mode: 'plan' } } },
      { type: 'control_response', response: { subtype: 'success', request_id: 'a2', response: {} } },
    ]);
  });

  it('a throwing handler becomes an error response, with the error_code of a ControlError', async () => {
    const { ch, sent } = channel();
    ch.onRequest('set_permission_mode', () => {
      throw new ControlError('Cannot set permission mode to bypassPermissions', 'bypass_not_launched');
    });
    ch.onRequest('mcp_status', async () => {
      throw new Error('boom');
    });
    ch.receive({ type: 'control_request', request_id: 'a1', request: { subtype: 'set_permission_mode', mode: 'bypassPermissions' } });
    ch.receive({ type: 'control_request', request_id: 'a2', request: { subtype: 'mcp_status' } });
    await tick();
    expect(sent).toEqual([
      {
        type: 'control_response',
        response: { subtype: 'error', request_id: 'a1', error: 'Cannot set permission mode to bypassPermissions', error_code: 'bypass_not_launched' },
      },
      { type: 'control_response', response: { subtype: 'error', request_id: 'a2', error: 'boom' } },
    ]);
  });

  it('an unknown subtype is answered with an error, never silence', async () => {
    const { ch, sent } = channel();
    ch.receive({ type: 'control_request', request_id: 'a1', request: { subtype: 'no_such_thing' } });
    ch.receive({ type: 'control_request', request_id: 'a2', request: {} });
    expect(sent).toEqual([
      {
        type: 'control_response',
        response: { subtype: 'error', request_id: 'a1', error: 'Unsupported control request subtype: no_such_thing', error_code: 'unsupported_request' },
      },
      {
        type: 'control_response',
        response: { subtype: 'error', request_id: 'a2', error: 'Invalid control request: it has no subtype', error_code: 'invalid_request' },
      },
    ]);
  });

  it('a slow handler never holds up the lines behind it', async () => {
    const { ch, sent } = channel();
    let release!: () => void;
    ch.onRequest('slow', () => new Promise<ControlPayload>((r) => (release = () => r({ done: true }))));
    ch.onRequest('fast', () => ({ fast: true }));
    ch.receive({ type: 'control_request', request_id: 's', request: { subtype: 'slow' } });
    ch.receive({ type: 'control_request', request_id: 'f', request: { subtype: 'fast' } });
    await tick();
    expect(sent.map((m) => (m.response as ControlPayload).request_id)).toEqual(['f']);
    release();
    await tick();
    expect(sent.map((m) => (m.response as ControlPayload).request_id)).toEqual(['f', 's']);
  });

  it('control_cancel_request aborts the handler signal and no answer goes out', async () => {
    const { ch, sent } = channel();
    let seen: AbortSignal | undefined;
    ch.onRequest('slow', (_req, signal) => {
      seen = signal;
      return new Promise<ControlPayload>((r) => signal.addEventListener('abort', () => r({ late: true })));
    });
    ch.receive({ type: 'control_request', request_id: 's', request: { subtype: 'slow' } });
    await tick();
    expect(ch.receive({ type: 'control_cancel_request', request_id: 's' })).toBe(true);
    await tick();
    expect(seen?.aborted).toBe(true);
    expect(sent).toEqual([]);
  });

  it('while the session is set up, requests wait for their handlers (holdUntil), then are answered or refused', async () => {
    const { ch, sent } = channel();
    let ready!: () => void;
    ch.holdUntil(new Promise<void>((r) => (ready = r)));
    ch.receive({ type: 'control_request', request_id: 'early', request: { subtype: 'set_model', model: 'opus' } });
    ch.receive({ type: 'control_request', request_id: 'never', request: { subtype: 'no_such_thing' } });
    await tick();
    expect(sent).toEqual([]);
    ch.onRequest('set_model', (req) => ({ model: req.model }));
    ready();
    await tick();
    expect(sent.map((m) => m.response)).toEqual([
      { subtype: 'success', request_id: 'early', response: { model: 'opus' } },
      { subtype: 'error', request_id: 'never', error: 'Unsupported control request subtype: no_such_thing', error_code: 'unsupported_request' },
    ]);
    // Once ready, an unknown request is refused at once.
    ch.receive({ type: 'control_request', request_id: 'late', request: { subtype: 'nope' } });
    expect(sent).toHaveLength(3);
  });

  it('lines that are not control messages are left to the caller', () => {
    const { ch } = channel();
    expect(ch.receive({ type: 'user', message: { role: 'user', content: 'hi' } })).toBe(false);
    expect(ch.receive('text')).toBe(false);
    expect(ch.receive(null)).toBe(false);
    expect(ch.receive([1])).toBe(false);
  });
});

describe('SdkSession', () => {
  it('holds the initialize request: hooks, SDK MCP servers and their manifests', () => {
    const s = new SdkSession({ send: () => {}, permissionPromptStdio: true });
    expect(s.hooks).toEqual({});
    expect(s.sdkMcpServers).toEqual([]);
    s.init = {
      subtype: 'initialize',
      hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }, { bad: true } as never], Stop: 'x' as never },
      sdkMcpServers: ['calc', 3 as never],
      sdkMcpServerManifests: { calc: { initializeResult: { serverInfo: { name: 'calc' } } } },
    };
    expect(s.hooks).toEqual({ PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }] });
    expect(s.sdkMcpServers).toEqual(['calc']);
    expect(s.sdkMcpServerManifests.calc?.initializeResult).toEqual({ serverInfo: { name: 'calc' } });
    expect(s.permissionPromptStdio).toBe(true);
  });
});
