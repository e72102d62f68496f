// query() options the other SDK tests leave out, each through the real SDK against the built wicket:
// limits and their result subtypes, thinking, setting sources, modes, directories, sessions, the
// main-thread agent, verbatim prompts, and what a hook's stop makes of the result.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getSessionMessages } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun, systemText } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n', '.claude/commands/hello.md': 'EXPANDED-HELLO\n' } });
const SDK_LINE = "You are a Claude agent, built on Anthropic's Claude Agent SDK.";
/** Runs `fn` with the SDK's session functions reading the test's HOME. */
async function withConfigDir<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.CLAUDE_CONFIG_DIR;
  process.env.CLAUDE_CONFIG_DIR = join(t.project.home, '.claude');
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
    else process.env.CLAUDE_CONFIG_DIR = saved;
  }
}
const bodies = () => t.api.messageRequests().map((r) => r.body as Record<string, any>);

describe('query() options', () => {
  it('maxTurns and maxBudgetUsd end the run with their subtypes, and the iterator throws the error result', async () => {
    const read = () => reply().toolUse('Read', { file_path: t.project.path('a.txt') });
    t.api.script(read(), read(), read(), reply().text('unused'));
    const turns = await sdkRun(t, 'read twice', { maxTurns: 1 });
    expect(turns.result).toMatchObject({ subtype: 'error_max_turns', is_error: true, terminal_reason: 'max_turns' });
    expect(turns.error?.message).toBe('Claude Code returned an error result: Reached maximum number of turns (1)');
    expect(t.api.messageRequests()).toHaveLength(1);

    const budget = await sdkRun(t, 'read', { maxBudgetUsd: 0.000001 });
    expect(budget.result).toMatchObject({ subtype: 'error_max_budget_usd', is_error: true });
    expect(budget.error?.message).toContain('--max-budget-usd');
    expect(t.api.messageRequests()).toHaveLength(2);
  });

  it('fallbackModel takes over while the model stays overloaded; thinking and maxThinkingTokens reach the API', async () => {
    t.api.script(reply().error(529), reply().error(529), reply().error(529), reply().text('from the fallback'), reply().text('a'), reply().text('b'));
    const run = await sdkRun(t, 'hi', { model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-4-5', env: { WICKET_RETRY_BASE_DELAY_MS: '1' } });
    expect(run.result).toMatchObject({ subtype: 'success', result: 'from the fallback' });
    // Claude Code's figures beside the cost: fast mode (wicket has none), refusals, sub-agents, time to the first word.
    expect(run.result).toMatchObject({ fast_mode_state: 'off', safety_stops: 0, subagent_stats: { spawned: 0, completed: 0 } });
    expect(typeof (run.result as Record<string, unknown>).ttft_ms).toBe('number');
    expect(bodies()[0]!.model).toBe('claude-sonnet-4-5');
    expect(bodies()[3]!.model).toBe('claude-haiku-4-5');
    await sdkRun(t, 'think', { thinking: { type: 'enabled', budgetTokens: 1500 } });
    await sdkRun(t, 'think', { maxThinkingTokens: 1200 });
    expect(
      bodies()
        .slice(4)
        .map((b) => b.thinking),
    ).toEqual([
      { type: 'enabled', budget_tokens: 1500 },
      { type: 'enabled', budget_tokens: 1200 },
    ]);
  });

  it('settingSources: [] loads no settings file and no CLAUDE.md; project loads both', async () => {
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Grep'] } }));
    await t.project.write('CLAUDE.md', 'PROJECT-MEMORY-MARK');
    t.api.script(reply().text('a'), reply().text('b'));
    await sdkRun(t, 'hi', { settingSources: [] });
    await sdkRun(t, 'hi', { settingSources: ['project', 'local', 'user'] });
    const [none, all] = bodies().map((b) => ({
      grep: b.tools.some((x: { name: string }) => x.name === 'Grep'),
      memory: JSON.stringify(b).includes('PROJECT-MEMORY-MARK'),
    }));
    expect(none).toEqual({ grep: true, memory: false });
    expect(all).toEqual({ grep: false, memory: true });
  });

  it('permissionMode plan and dontAsk keep a Write from running; bypassPermissions (allowed) runs it', async () => {
    const write = (f: string) => reply().toolUse('Write', { file_path: t.project.path(f), content: 'x\n' });
    t.api.script(write('p.txt'), reply().text('planned'), write('d.txt'), reply().text('refused'), write('b.txt'), reply().text('written'));
    const plan = await sdkRun(t, 'write', { permissionMode: 'plan' });
    const dont = await sdkRun(t, 'write', { permissionMode: 'dontAsk' });
    const bypass = await sdkRun(t, 'write', { permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    expect([plan, dont, bypass].map((r) => (r.messages[0] as any).permissionMode)).toEqual(['plan', 'dontAsk', 'bypassPermissions']);
    expect([plan, dont, bypass].map((r) => r.result?.subtype)).toEqual(['success', 'success', 'success']);
    expect(['p.txt', 'd.txt', 'b.txt'].map((f) => t.project.exists(f))).toEqual([false, false, true]);
    expect(dont.result!.permission_denials).toHaveLength(1);
  });

  it('additionalDirectories are readable unasked and listed; sessionId names the session; continue goes on from it; persistSession false writes nothing', async () => {
    const extra = t.project.path('extra');
    mkdirSync(extra);
    writeFileSync(`${extra}/x.txt`, 'EXTRA-MARK');
    t.api.script(
      reply().toolUse('Read', { file_path: `${extra}/x.txt` }, { id: 'toolu_x' }),
      reply().text('read'),
      reply().text('continued'),
      reply().text('unsaved'),
      reply().text('again'),
    );
    const id = randomUUID();
    const first = await sdkRun(t, 'read it', { additionalDirectories: [extra], sessionId: id });
    expect((first.messages[0] as any).additional_directories).toEqual([extra]);
    expect(JSON.stringify(toolResultIn(bodies()[1], 'toolu_x'))).toContain('EXTRA-MARK');
    expect(first.result).toMatchObject({ subtype: 'success', session_id: id, permission_denials: [] });
    const next = await sdkRun(t, 'and then?', { continue: true });
    expect(next.result).toMatchObject({ result: 'continued', session_id: id });
    expect(JSON.stringify(bodies()[2]!.messages)).toContain('read it');
    const unsaved = await sdkRun(t, 'forget this', { persistSession: false });
    const again = await sdkRun(t, 'which?', { continue: true });
    expect(unsaved.result?.result).toBe('unsaved');
    expect(again.result).toMatchObject({ result: 'again', session_id: id });
    expect(JSON.stringify(bodies()[4]!.messages)).not.toContain('forget this');
  });

  it('resumeSessionAt: the stream’s uuids are the transcript’s; the resumed conversation ends at the given message; an unknown uuid is refused', async () => {
    t.api.script(reply().text('one'), reply().text('two'), reply().text('three'));
    const first = await sdkRun(t, 'first', { extraArgs: { 'replay-user-messages': null } });
    const id = first.result!.session_id as string;
    await sdkRun(t, 'second', { resume: id });
    // The stream's uuids are those of the session as the SDK reads it from the transcript.
    const kept = first.messages.find((m) => m.type === 'assistant')!.uuid;
    const saved = await withConfigDir(() => getSessionMessages(id, { dir: t.project.dir }));
    const prompt = first.messages.find((m) => m.type === 'user')!.uuid;
    expect(saved.map((m) => m.uuid).slice(0, 2)).toEqual([prompt, kept]);
    const at = await sdkRun(t, 'third', { resume: id, resumeSessionAt: kept });
    expect(at.result).toMatchObject({ subtype: 'success', result: 'three', session_id: id });
    const sent = JSON.stringify(bodies()[2]!.messages);
    expect(sent).toContain('first');
    expect(sent).not.toContain('second');
    const bad = await sdkRun(t, 'fourth', { resume: id, resumeSessionAt: randomUUID() });
    expect(bad.error?.message).toMatch(/holds no message/);
    expect(t.api.messageRequests()).toHaveLength(3);
  });

  it('agent: the main thread runs as the agent, its prompt after the SDK line (a custom systemPrompt wins), its tools and model', async () => {
    const agents = { rev: { description: 'Reviews', prompt: 'REVIEWER-PROMPT', tools: ['Read'], model: 'haiku' } };
    t.api.script(reply().text('a'), reply().text('b'));
    const run = await sdkRun(t, 'review', { agent: 'rev', agents });
    const [plain, custom] = [run, await sdkRun(t, 'review', { agent: 'rev', agents, systemPrompt: 'CUSTOM-SYS' })].map((_, i) => systemText(bodies()[i]!));
    expect(plain!.startsWith(`${SDK_LINE}\n\nREVIEWER-PROMPT`)).toBe(true);
    expect(custom!.startsWith(`${SDK_LINE}\n\nCUSTOM-SYS`)).toBe(true);
    expect(custom).not.toContain('REVIEWER-PROMPT');
    expect(bodies()[0]!.tools.map((x: { name: string }) => x.name)).toEqual(['Read']);
    expect(bodies()[0]!.model).toMatch(/haiku/);
  });

  it('verbatimPrompts: "/hello @a.txt" goes as written; without it the command expands and the file comes along', async () => {
    t.api.script(reply().text('a'), reply().text('b'));
    await sdkRun(t, '/hello @a.txt', { verbatimPrompts: true });
    await sdkRun(t, '/hello @a.txt');
    const [verbatim, typed] = bodies().map((b) => JSON.stringify(b.messages));
    expect(verbatim).toContain('/hello @a.txt');
    expect(verbatim).not.toContain('EXPANDED-HELLO');
    expect(verbatim).not.toContain('alpha');
    expect(typed).toContain('EXPANDED-HELLO');
  });

  it('a hook that stops the run ends it as Claude Code does: success, hook_stopped, no throw', async () => {
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a.txt') }), reply().text('unused'));
    const post = await sdkRun(t, 'read', {
      allowedTools: ['Read'],
      hooks: { PostToolUse: [{ hooks: [async () => ({ continue: false, stopReason: 'POST-STOP' })] }] },
    });
    expect(post.error).toBeUndefined();
    expect(post.result).toMatchObject({ subtype: 'success', is_error: false, result: '', terminal_reason: 'hook_stopped' });
    const blocked = await sdkRun(t, 'go', { hooks: { UserPromptSubmit: [{ hooks: [async () => ({ decision: 'block', reason: 'NO-PROMPTS' })] }] } });
    expect(blocked.error).toBeUndefined();
    expect(blocked.result).toMatchObject({
      subtype: 'success',
      is_error: false,
      num_turns: 0,
      result: 'UserPromptSubmit operation blocked by hook:\nNO-PROMPTS\n\nOriginal prompt: go',
    });
    expect(t.api.messageRequests()).toHaveLength(1);
  });
});
