/** The SDK host's guards over a real control channel: can_use_tool, hook_callback and mcp_message, and what happens when the host cannot be reached. */
import { describe, expect, it } from 'vitest';
import { emptyRules, type PermissionRequest } from '../../../src/base/permission-types.js';
import { HookCallbackUndelivered } from '../../../src/hooks/run-callback.js';
import type { PermissionTarget } from '../../../src/core/permission-updates.js';
import { canUseToolAsker } from '../../../src/sdk/can-use-tool.js';
import type { ControlPayload } from '../../../src/sdk/control-channel.js';
import { hookCallbackRunner, sdkHookCallbacks } from '../../../src/sdk/hook-callbacks.js';
import { sdkMcpServers } from '../../../src/sdk/mcp-links.js';
import { SdkSession } from '../../../src/sdk/session.js';

/** A session whose SDK side answers each of wicket's requests with `answer(request)` (an Error: an error response; undefined: no answer). */
function host(answer: (request: ControlPayload) => ControlPayload | Error | undefined = () => ({})) {
  const sent: ControlPayload[] = [];
  let n = 0;
  const session: SdkSession = new SdkSession({
    newId: () => `r${++n}`,
    send: (m) => {
      sent.push(m);
      if (m.type !== 'control_request') return;
      const a = answer(m.request as ControlPayload);
      if (a === undefined) return;
      const response =
        a instanceof Error ? { subtype: 'error', request_id: m.request_id, error: a.message } : { subtype: 'success', request_id: m.request_id, response: a };
      queueMicrotask(() => session.channel.receive({ type: 'control_response', response }));
    },
  });
  return { session, sent };
}

const target = (): PermissionTarget => ({
  permission: { mode: 'default', rules: emptyRules() },
  additionalDirs: [],
  projectRoot: '/p',
  cwd: '/p',
  homeDir: '/h',
  canBypass: false,
});

const bashAsk: PermissionRequest = {
  toolUseId: 'toolu_b3',
  toolName: 'Bash',
  input: { command: 'touch /p/made-by-bash.txt', description: 'Create a file' },
  summary: 'touch /p/made-by-bash.txt',
  reason: 'touch writes a file (tool default)',
  suggestions: ['Bash(touch /p/made-by-bash.txt)'],
  ruleCanAllow: true,
  askedBy: 'tool default',
  blockedPath: '/p/made-by-bash.txt',
  agentId: 'a1b2c3d4',
};

const signal = new AbortController().signal;

describe('can_use_tool', () => {
  it('sends the fields Claude Code sends, and an allow runs the call as the host changed it', async () => {
    const t = target();
    const { session, sent } = host(() => ({
      behavior: 'allow',
      updatedInput: { command: 'touch /p/other.txt' },
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }],
      toolUseID: 'toolu_b3',
    }));
    const ask = canUseToolAsker({ request: (body, s) => session.channel.request('can_use_tool', body, { signal: s }), target: () => t });
    expect(await ask(bashAsk, signal)).toEqual({ behavior: 'allow', answeredBy: 'the SDK host (canUseTool)', updatedInput: { command: 'touch /p/other.txt' } });
    expect(sent[0]).toEqual({
      type: 'control_request',
      request_id: 'r1',
      request: {
        subtype: 'can_use_tool',
        tool_name: 'Bash',
        display_name: 'Bash',
        title: 'Run the command: touch /p/made-by-bash.txt',
        input: bashAsk.input,
        description: 'Create a file',
        permission_suggestions: [
          { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch /p/made-by-bash.txt' }], behavior: 'allow', destination: 'localSettings' },
        ],
        blocked_path: '/p/made-by-bash.txt',
        decision_reason: 'touch writes a file (tool default)',
        decision_reason_type: 'other',
        tool_use_id: 'toolu_b3',
        agent_id: 'a1b2c3d4',
      },
    });
    expect(t.permission.mode).toBe('acceptEdits');
  });

  it('suggests acceptEdits for an edit and the folder of a path outside the workspace; nothing when only a person may approve', async () => {
    const { session, sent } = host(() => ({ behavior: 'deny', message: 'no' }));
    const ask = canUseToolAsker({ request: (body, s) => session.channel.request('can_use_tool', body, { signal: s }), target });
    await ask({ ...bashAsk, toolName: 'Write', suggestions: [], blockedPath: '/elsewhere/x.txt', reason: 'outside the workspace' }, signal);
    await ask({ ...bashAsk, ruleCanAllow: false, askedBy: 'ask rule Bash(touch *) [projectSettings]' }, signal);
    const [write, ruled] = sent.map((m) => m.request as ControlPayload);
    expect(write!.permission_suggestions).toEqual([
      { type: 'addDirectories', directories: ['/elsewhere'], destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
    ]);
    expect(write!.decision_reason_type).toBe('workingDir');
    expect(ruled).toMatchObject({ permission_suggestions: [], decision_reason_type: 'rule', suppress_always_allow_rule: true });
    expect(write!.suppress_always_allow_rule).toBeUndefined();
  });

  it('a deny refuses with the host’s message; interrupt: true ends the turn as it is answered', async () => {
    const order: string[] = [];
    const { session } = host(() => ({ behavior: 'deny', message: 'Bash is not allowed in this test.', interrupt: true }));
    const ask = canUseToolAsker({
      request: (body, s) => session.channel.request('can_use_tool', body, { signal: s }),
      target,
      interrupt: () => order.push('interrupt'),
    });
    const answer = await ask(bashAsk, signal);
    order.push('answered');
    expect(answer).toEqual({ behavior: 'deny', message: 'Bash is not allowed in this test.', answeredBy: 'the SDK host (canUseTool)' });
    expect(order).toEqual(['interrupt', 'answered']);
  });

  it('an error answer, an answer that is neither allow nor deny, or a host that is gone: refusals', async () => {
    const answers = [new Error('canUseTool exploded'), { behavior: 'maybe' }, { behavior: 'allow', updatedInput: 'rm -rf /' }];
    const { session } = host(() => answers.shift());
    const ask = canUseToolAsker({ request: (body, s) => session.channel.request('can_use_tool', body, { signal: s }), target });
    expect(await ask(bashAsk, signal)).toMatchObject({ behavior: 'deny', message: 'Tool permission request failed: Error: canUseTool exploded' });
    expect(await ask(bashAsk, signal)).toMatchObject({ behavior: 'deny', message: 'the SDK host (canUseTool) answered neither "allow" nor "deny"' });
    expect(await ask(bashAsk, signal)).toMatchObject({ behavior: 'deny', message: expect.stringContaining('updatedInput that is not an object') });
    session.channel.close();
    expect(await ask(bashAsk, signal)).toMatchObject({
      behavior: 'deny',
      message: expect.stringMatching(/^Tool permission request failed: Error: the SDK host cannot be asked/),
    });
  });

  it('an interrupt while the request waits withdraws it (control_cancel_request) and refuses the call', async () => {
    const { session, sent } = host(() => undefined);
    const ask = canUseToolAsker({ request: (body, s) => session.channel.request('can_use_tool', body, { signal: s }), target });
    const abort = new AbortController();
    const pending = ask(bashAsk, abort.signal);
    abort.abort();
    expect(await pending).toEqual({ behavior: 'deny', message: 'the run was interrupted before the SDK host answered', answeredBy: 'interrupted' });
    expect(sent[1]).toEqual({ type: 'control_cancel_request', request_id: 'r1' });
  });
});

describe('hook_callback', () => {
  it('sends the callback id, the input and the call id; resolves with the answer', async () => {
    const { session, sent } = host(() => ({ continue: true }));
    const run = hookCallbackRunner(session.channel);
    expect(await run({ callbackId: 'hook_1', input: { hook_event_name: 'PreToolUse' }, toolUseId: 'toolu_c1' }, signal)).toEqual({ continue: true });
    expect(sent[0]!.request).toEqual({ subtype: 'hook_callback', callback_id: 'hook_1', input: { hook_event_name: 'PreToolUse' }, tool_use_id: 'toolu_c1' });
  });

  it('an error answer is the host’s error; a host that is gone (before or while asked) is undelivered', async () => {
    const { session } = host((r) => (r.callback_id === 'bad' ? new Error('hook exploded') : undefined));
    const run = hookCallbackRunner(session.channel);
    await expect(run({ callbackId: 'bad', input: {}, toolUseId: 't' }, signal)).rejects.toThrow('hook exploded');
    const waiting = run({ callbackId: 'slow', input: {}, toolUseId: 't' }, signal);
    session.channel.close();
    await expect(waiting).rejects.toBeInstanceOf(HookCallbackUndelivered);
    await expect(run({ callbackId: 'late', input: {}, toolUseId: 't' }, signal)).rejects.toBeInstanceOf(HookCallbackUndelivered);
  });
});

describe('SDK MCP servers and initialize', () => {
  it('one entry per server, with its manifest; messages travel as mcp_message and their mcp_response comes back', async () => {
    const { session, sent } = host(() => ({ mcp_response: { jsonrpc: '2.0', id: 2, result: { content: [] } } }));
    session.init = {
      subtype: 'initialize',
      sdkMcpServers: ['calc', 'bare'],
      sdkMcpServerManifests: { calc: { initializeResult: { protocolVersion: '2025-11-25' }, toolsListResult: { tools: [] } } },
      hooks: { PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }], Nope: [] },
    };
    const hooks = sdkHookCallbacks(session);
    const servers = sdkMcpServers(session);
    expect(hooks.groups).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', hooks: [{ type: 'callback', callbackId: 'hook_0', onFailure: 'continue' }], source: 'sdk' },
    ]);
    expect(hooks.warnings).toEqual(['initialize: hooks.Nope: not a hook event; its callbacks never run']);
    expect(servers.map((e) => [e.name, e.manifest])).toEqual([
      ['calc', { initializeResult: { protocolVersion: '2025-11-25' }, toolsListResult: { tools: [] } }],
      ['bare', undefined],
    ]);
    const call = { jsonrpc: '2.0' as const, id: 2, method: 'tools/call', params: { name: 'add' } };
    expect(await servers[0]!.link.send(call, signal)).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [] } });
    expect(sent[0]!.request).toEqual({ subtype: 'mcp_message', server_name: 'calc', message: call });
  });

  it("the servers' own messages reach the connection that listens; an unknown server is an error", async () => {
    const { session, sent } = host();
    session.init = { subtype: 'initialize', sdkMcpServers: ['calc'] };
    const [calc] = sdkMcpServers(session);
    calc!.link.listen!(async (m) => ({ jsonrpc: '2.0', id: 7, result: { got: m } }));
    session.channel.receive({ type: 'control_request', request_id: 'in1', request: { subtype: 'mcp_message', server_name: 'calc', message: { ping: 1 } } });
    session.channel.receive({ type: 'control_request', request_id: 'in2', request: { subtype: 'mcp_message', server_name: 'nope', message: {} } });
    await new Promise((r) => setTimeout(r, 10));
    expect(sent).toEqual([
      {
        type: 'control_response',
        response: { subtype: 'success', request_id: 'in1', response: { mcp_response: { jsonrpc: '2.0', id: 7, result: { got: { ping: 1 } } } } },
      },
      { type: 'control_response', response: { subtype: 'error', request_id: 'in2', error: 'SDK MCP server not found: nope' } },
    ]);
  });
});
