import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../src/base/usage.js';
import { parseHooksConfig } from '../../../src/settings/hooks.js';
import type { AgentHook } from '../../../src/base/hook-config.js';
import { blockOutput, runAgentHook, withoutAgentHooks, type HookAgentAnswer, type HookAgentRequest } from '../../../src/hooks/run-agent.js';
import { defaultTimeoutSec } from '../../../src/hooks/run-handler.js';
import { bash, buildHooks, signal } from './helpers.js';

const opts = { cwd: '/', env: {}, timeoutMs: 2000 };
const spent = { usage: { ...emptyUsage(), input_tokens: 12, output_tokens: 3 }, costUsd: 0.001, model: 'claude-haiku-4-5', apiDurationMs: 5 };

/** A runner that records what it was asked and answers as told. */
function runner(answer: Partial<HookAgentAnswer> | ((r: HookAgentRequest) => Promise<HookAgentAnswer>)) {
  const asked: HookAgentRequest[] = [];
  const run = async (r: HookAgentRequest): Promise<HookAgentAnswer> => {
    asked.push(r);
    return typeof answer === 'function' ? answer(r) : { text: '', usage: [spent], warnings: [], ...answer };
  };
  return { asked, run };
}

describe('agent hooks: parsing', () => {
  it('reads prompt, model and timeout; the default timeout is 60 s', () => {
    const { groups, warnings } = parseHooksConfig(
      {
        Stop: [
          {
            hooks: [
              { type: 'agent', prompt: 'Tests pass? $ARGUMENTS', model: 'sonnet', timeout: 120 },
              { type: 'agent', prompt: ' ' },
            ],
          },
        ],
      },
      'projectSettings',
      undefined,
      'settings.json',
    );
    expect(groups[0]!.hooks).toEqual([{ type: 'agent', prompt: 'Tests pass? $ARGUMENTS', model: 'sonnet', timeout: 120 }]);
    expect(warnings).toEqual(['settings.json: hooks.Stop[0].hooks[1]: "prompt" must be a non-empty string; skipped']);
    const hook: AgentHook = { type: 'agent', prompt: 'x' };
    expect([defaultTimeoutSec(hook, 'Stop'), defaultTimeoutSec(hook, 'UserPromptSubmit'), defaultTimeoutSec({ type: 'prompt', prompt: 'x' }, 'Stop')]).toEqual([
      60, 60, 30,
    ]);
  });
});

describe('agent hooks: running', () => {
  const hook: AgentHook = { type: 'agent', prompt: 'Were the tests run? $ARGUMENTS', model: 'sonnet' };

  it('hands the sub-agent the prompt with the event JSON, read-only tools and a 50-round limit; its structured answer decides', async () => {
    const r = runner({ structured: { ok: false, reason: 'Run npm test first.' } });
    const seen: unknown[] = [];
    const out = await runAgentHook(hook, 'Stop', '{"hook_event_name":"Stop"}', { runAgent: r.run, onAgentRun: (a) => seen.push(a.usage) }, opts);
    expect(r.asked[0]).toMatchObject({
      prompt: 'Were the tests run? {"hook_event_name":"Stop"}',
      model: 'sonnet',
      toolNames: ['Read', 'Grep', 'Glob'],
      maxTurns: 50,
    });
    expect(r.asked[0]!.system).toContain('StructuredOutput');
    expect(out).toMatchObject({ exitCode: 0, stdout: JSON.stringify({ decision: 'block', reason: 'Run npm test first.' }) });
    expect(seen).toEqual([[spent]]);
  });

  it('reads a JSON final text when it did not use the tool; "ok": true decides nothing', async () => {
    const ok = await runAgentHook(
      { type: 'agent', prompt: 'check' },
      'PostToolUse',
      '{}',
      { runAgent: runner({ text: 'Looked at it.\n{"ok": true}' }).run },
      opts,
    );
    expect(ok).toMatchObject({ exitCode: 0, stdout: '' });
    const prompt = runner({ text: '{"ok": true}' });
    await runAgentHook({ type: 'agent', prompt: 'check' }, 'PostToolUse', '{"a":1}', { runAgent: prompt.run }, opts);
    expect(prompt.asked[0]!.prompt).toBe('check\n\nThe data of this moment (PostToolUse):\n{"a":1}');
  });

  it('"ok": false is read as continueOnBlock: PreToolUse denies the call, PermissionRequest is left alone, others block', () => {
    expect(blockOutput('PreToolUse', 'no')).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    expect(blockOutput('PermissionRequest', 'no')).toBeUndefined();
    expect(blockOutput('UserPromptSubmit', 'no')).toEqual({ decision: 'block', reason: 'no' });
  });

  it('no answer, a failed run, no runner: non-blocking failures with the reason', async () => {
    expect(await runAgentHook(hook, 'Stop', '{}', { runAgent: runner({ text: 'I think so', error: 'it ended with max_turns' }).run }, opts)).toMatchObject({
      exitCode: 1,
      stderr: 'the sub-agent stopped without an answer: it ended with max_turns',
    });
    expect(await runAgentHook(hook, 'Stop', '{}', { runAgent: runner({ text: 'yes' }).run }, opts)).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('is not {"ok"'),
    });
    const failing = runner(async () => Promise.reject(new Error('API down')));
    expect(await runAgentHook(hook, 'Stop', '{}', { runAgent: failing.run }, opts)).toMatchObject({ spawnError: 'the sub-agent did not run: API down' });
    expect(await runAgentHook(hook, 'Stop', '{}', {}, opts)).toMatchObject({ spawnError: 'no sub-agent can be started for this hook' });
  });

  it('a timeout stops the sub-agent', async () => {
    const slow = runner((r) => new Promise((_, reject) => r.signal.addEventListener('abort', () => reject(new Error('aborted')))));
    const out = await runAgentHook(hook, 'Stop', '{}', { runAgent: slow.run }, { ...opts, timeoutMs: 50 });
    expect(out).toMatchObject({ timedOut: true, stdout: '' });
  });
});

describe('agent hooks in the gate', () => {
  it('a Stop agent hook blocks; its cost is drained as usage; its sub-agent gets a gate without agent hooks', async () => {
    let inner: HookAgentRequest['hooks'] | undefined;
    const r = runner(async (req) => {
      inner = req.hooks;
      return { text: '{"ok": false, "reason": "Tests were not run."}', usage: [spent], warnings: ['inner warning'] };
    });
    const { hooks } = buildHooks(
      {
        Stop: [{ hooks: [{ type: 'agent', prompt: 'check' }] }],
        PreToolUse: [
          {
            hooks: [
              { type: 'agent', prompt: 'check the call' },
              { type: 'command', command: 'echo \'{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"by command"}}\'' },
            ],
          },
        ],
      },
      { runAgent: r.run },
    );
    expect(await hooks.stop({ lastAssistantMessage: 'done', stopHookActive: false }, signal)).toEqual({ block: 'Tests were not run.' });
    expect(hooks.drainUsage()).toEqual([spent]);
    expect(hooks.drainUsage()).toEqual([]);
    expect(hooks.drainNotices()).toEqual(['inner warning']);
    // The sub-agent's own calls: the command hook still runs, the agent hook does not.
    const pre = await inner!.preToolUse(bash('ls'), signal);
    expect(pre).toMatchObject({ decision: 'deny', reason: 'by command' });
    expect(r.asked).toHaveLength(1);
  });

  it('withoutAgentHooks keeps the other handlers and the groups', () => {
    const group = {
      event: 'Stop' as const,
      source: 'projectSettings' as const,
      hooks: [
        { type: 'agent' as const, prompt: 'a' },
        { type: 'command' as const, command: 'true' },
      ],
    };
    expect(withoutAgentHooks([group])).toEqual([{ ...group, hooks: [{ type: 'command', command: 'true' }] }]);
  });
});
