/**
 * `type: "callback"` hooks (an Agent SDK host's functions): the same input as a command hook, the
 * answer read as a command hook's JSON, and a callback that fails or times out following its
 * onFailure; one that cannot be delivered blocks.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { callbackGroups } from '../../../src/hooks/callback-groups.js';
import { createHooks } from '../../../src/hooks/create.js';
import { HookCallbackUndelivered, type HookCallbackRequest, type HookCallbackRunner } from '../../../src/hooks/run-callback.js';
import { bash, signal, tempDir } from './helpers.js';

function gate(hooksValue: unknown, runner: HookCallbackRunner | undefined) {
  const projectRoot = tempDir();
  const { groups, warnings } = callbackGroups(hooksValue);
  const hooks = createHooks(
    { hooks: groups, env: {} },
    {
      sessionId: 'sess-1',
      cwd: projectRoot,
      projectRoot,
      transcriptPath: path.join(projectRoot, 't.jsonl'),
      getPermissionMode: () => 'default',
      env: {},
      ...(runner ? { hookCallback: runner } : {}),
    },
  );
  return { hooks, warnings, projectRoot };
}

/** A runner that records each request and answers with `answer(request)`. */
function recording(answer: (r: HookCallbackRequest, s: AbortSignal) => unknown) {
  const seen: HookCallbackRequest[] = [];
  const runner: HookCallbackRunner = async (r, s) => {
    seen.push(r);
    return answer(r, s);
  };
  return { seen, runner };
}

const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'Blocked by SDK hook.' } };

describe('callback hook groups from initialize', () => {
  it('reads matchers, ids, timeout and onFailure; names what it cannot use', () => {
    const { groups, warnings } = callbackGroups({
      PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'], timeout: 5, onFailure: 'block' }, { hookCallbackIds: ['hook_1', 7] }],
      Stop: [{ hookCallbackIds: ['hook_2'], onFailure: 'maybe' }],
      PermissionDenied: [{ hookCallbackIds: ['hook_3'] }],
      Nonsense: [],
      PostToolUse: 'x',
    });
    expect(groups).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', hooks: [{ type: 'callback', callbackId: 'hook_0', timeout: 5, onFailure: 'block' }], source: 'sdk' },
      { event: 'PreToolUse', hooks: [{ type: 'callback', callbackId: 'hook_1', onFailure: 'continue' }], source: 'sdk' },
      { event: 'Stop', hooks: [{ type: 'callback', callbackId: 'hook_2', onFailure: 'block' }], source: 'sdk' },
    ]);
    expect(warnings).toEqual([
      'initialize: hooks.PreToolUse[1]: a callback id that is not a string was skipped',
      'initialize: hooks.Stop[0]: "onFailure" must be "continue" or "block"; read as "block"',
      'initialize: hooks.PermissionDenied: wicket does not fire this event; its callbacks never run',
      'initialize: hooks.Nonsense: not a hook event; its callbacks never run',
      'initialize: hooks.PostToolUse is not a list; its callbacks were not registered',
    ]);
    expect(callbackGroups(undefined)).toEqual({ groups: [], warnings: [] });
  });
});

describe('callback hooks through the gate', () => {
  it('gets the command hook input and the call id; its deny decides as a command hook would', async () => {
    const { seen, runner } = recording(() => deny);
    const { hooks, projectRoot } = gate({ PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }] }, runner);
    expect(await hooks.preToolUse(bash('touch x', 'toolu_c2'), signal)).toMatchObject({ kind: 'continue', decision: 'deny', reason: 'Blocked by SDK hook.' });
    expect(seen).toEqual([
      {
        callbackId: 'hook_0',
        toolUseId: 'toolu_c2',
        input: {
          session_id: 'sess-1',
          transcript_path: path.join(projectRoot, 't.jsonl'),
          cwd: projectRoot,
          hook_event_name: 'PreToolUse',
          permission_mode: 'default',
          tool_name: 'Bash',
          tool_input: { command: 'touch x' },
          tool_use_id: 'toolu_c2',
        },
      },
    ]);
  });

  it('runs only the callbacks whose matcher matches, each matching one in parallel', async () => {
    let running = 0;
    let most = 0;
    const { seen, runner } = recording(async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 30));
      running--;
      return { continue: true };
    });
    const { hooks } = gate(
      {
        PreToolUse: [{ matcher: 'Bash', hookCallbackIds: ['hook_0'] }, { matcher: 'Read|Write', hookCallbackIds: ['hook_1'] }, { hookCallbackIds: ['hook_2'] }],
      },
      runner,
    );
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(seen.map((r) => r.callbackId).sort()).toEqual(['hook_0', 'hook_2']);
    expect(most).toBe(2);
  });

  it('non-tool events get a fresh id and their own fields; additionalContext reaches the model', async () => {
    const { seen, runner } = recording(() => ({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'SDK-CONTEXT' } }));
    const { hooks } = gate({ UserPromptSubmit: [{ hookCallbackIds: ['hook_3'] }] }, runner);
    expect(await hooks.userPromptSubmit('Hook test.', signal)).toEqual({ additionalContext: 'SDK-CONTEXT' });
    expect(seen[0]!.input).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'Hook test.' });
    expect(seen[0]!.toolUseId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an updatedInput rewrites the call', async () => {
    const { runner } = recording(() => ({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls -a' } },
    }));
    const { hooks } = gate({ PreToolUse: [{ hookCallbackIds: ['h'] }] }, runner);
    expect(await hooks.preToolUse(bash('ls'), signal)).toMatchObject({ decision: 'allow', updatedInput: { command: 'ls -a' } });
  });

  it('an error answer is reported and treated as empty (onFailure continue)', async () => {
    const { runner } = recording(() => {
      throw new Error('hook exploded');
    });
    const { hooks } = gate({ PreToolUse: [{ hookCallbackIds: ['hook_0'] }] }, runner);
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([
      'PreToolUse hook "callback hook_0" [sdk] failed with non-blocking status code 1: hook callback hook_0 failed: the SDK host answered with an error: hook exploded; its answer was treated as empty',
    ]);
  });

  it('an error answer blocks when onFailure is "block"', async () => {
    const { runner } = recording(() => {
      throw new Error('hook exploded');
    });
    const { hooks } = gate({ PreToolUse: [{ hookCallbackIds: ['hook_0'], onFailure: 'block' }] }, runner);
    const out = await hooks.preToolUse(bash('ls'), signal);
    expect(out).toMatchObject({ kind: 'continue', decision: 'deny' });
    expect(out.kind === 'continue' && out.reason).toContain('hook exploded); blocked as its onFailure is "block"');
  });

  it('an answer that is not a JSON object is a failure', async () => {
    const { runner } = recording(() => 'yes');
    const { hooks } = gate({ UserPromptSubmit: [{ hookCallbackIds: ['h'], onFailure: 'block' }] }, runner);
    expect((await hooks.userPromptSubmit('hi', signal)).block).toContain('the SDK host\'s answer is not a JSON object: "yes"');
  });

  it('no answer within the timeout: the request is withdrawn; reported, or a block with onFailure "block"', async () => {
    const aborted: string[] = [];
    const never: HookCallbackRunner = (r, s) =>
      new Promise(() => {
        s.addEventListener('abort', () => aborted.push(r.callbackId));
      });
    const soft = gate({ PreToolUse: [{ hookCallbackIds: ['slow'], timeout: 0.2 }] }, never).hooks;
    expect(await soft.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(soft.drainNotices()).toEqual(['PreToolUse hook "callback slow" [sdk] timed out after 0.2 s and was stopped; its output is ignored']);
    const hard = gate({ PreToolUse: [{ hookCallbackIds: ['slow2'], timeout: 0.2, onFailure: 'block' }] }, never).hooks;
    expect(await hard.preToolUse(bash('ls'), signal)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('no answer within 0.2 s') });
    expect(aborted).toEqual(['slow', 'slow2']);
  });

  it('a callback that cannot be delivered blocks, whatever its onFailure', async () => {
    const closed: HookCallbackRunner = async () => {
      throw new HookCallbackUndelivered('the channel is closed');
    };
    const { hooks } = gate({ PreToolUse: [{ hookCallbackIds: ['hook_0'], onFailure: 'continue' }] }, closed);
    expect(await hooks.preToolUse(bash('rm -rf x'), signal)).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('could not be delivered to the SDK host: the channel is closed); blocked so that no guard of the SDK host is skipped'),
    });
    const none = gate({ PermissionRequest: [{ hookCallbackIds: ['p'] }] }, undefined).hooks;
    expect(await none.permissionRequest({ ...bash('ls'), suggestions: [] }, signal)).toMatchObject({ behavior: 'deny' });
  });

  it('Stop is never blocked by a failure, and an interrupted run decides nothing', async () => {
    const closed: HookCallbackRunner = async () => {
      throw new HookCallbackUndelivered('gone');
    };
    const { hooks } = gate({ Stop: [{ hookCallbackIds: ['s'], onFailure: 'block' }] }, closed);
    expect(await hooks.stop({ lastAssistantMessage: 'done', stopHookActive: false }, signal)).toEqual({});
    const abort = new AbortController();
    const pending: HookCallbackRunner = (_r, s) => new Promise((_, reject) => s.addEventListener('abort', () => reject(new Error('cancelled'))));
    const other = gate({ PreToolUse: [{ hookCallbackIds: ['x'], onFailure: 'block' }] }, pending).hooks;
    const out = other.preToolUse(bash('ls'), abort.signal);
    abort.abort();
    expect(await out).toEqual({ kind: 'continue' });
  });

  it("a run interrupted before its callback starts: the runner's refusal is handled, nothing is left unawaited", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const abort = new AbortController();
      abort.abort(new Error('interrupted'));
      // As the control channel does: a request made with an aborted signal is refused at once.
      const refusing: HookCallbackRunner = (_r, s) => Promise.reject(s.reason);
      const { hooks } = gate({ PostToolUse: [{ hookCallbackIds: ['p'] }] }, refusing);
      await hooks.postToolUse({ ...bash('sleep 9'), toolResponse: 'interrupted', durationMs: 1 }, abort.signal);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('{async: true} decides nothing', async () => {
    const { runner } = recording(() => ({ async: true, asyncTimeout: 100 }));
    const { hooks } = gate({ PreToolUse: [{ hookCallbackIds: ['a'] }] }, runner);
    expect(await hooks.preToolUse(bash('ls'), signal)).toEqual({ kind: 'continue' });
    expect(hooks.drainNotices()).toEqual([]);
  });
});
