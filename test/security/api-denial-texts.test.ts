/**
 * Every refusal the permission gate writes for the model, walked through the real runner and the
 * real permission decision: each names its gate, ends each sentence once (no "..", no ". ;"), and
 * a call nobody could be asked about never says the user said no. Reasons that already end with a
 * full stop (tools, hooks and people write them that way) are part of the sample.
 */
import { describe, expect, it } from 'vitest';
import { printModeAskUser } from '../../src/cli/print-mode.js';
import { executeCall, prepareCall, type RunnerEnv } from '../../src/core/tool-runner.js';
import { noHooks, type Hooks } from '../../src/hooks/types.js';
import type { PermissionMode } from '../../src/base/permission-modes.js';
import { parseRule } from '../../src/base/rule-parse.js';
import { emptyRules, type AskUser, type PermissionRules } from '../../src/base/permission-types.js';
import type { ToolPermissionVerdict } from '../../src/base/tool.js';
import { fakeEnv, fakeTool } from '../unit/core/fake-tools.js';

const ASKS: ToolPermissionVerdict = { behavior: 'ask', reason: 'W wants to change x, which is outside the workspace.', suggestions: ['W(x)'] };
const ASKS_BARE: ToolPermissionVerdict = { behavior: 'ask', reason: 'W changes things' };

interface Case {
  name: string;
  mode?: PermissionMode;
  rules?: Partial<Record<keyof PermissionRules, string[]>>;
  verdict?: ToolPermissionVerdict;
  askUser?: AskUser;
  hooks?: Partial<Hooks>;
  /** Nobody was asked: the text must not say that the user said no. */
  unasked?: boolean;
  /** A piece the text must hold. */
  holds: string;
}

const CASES: Case[] = [
  {
    name: 'print mode, the tool asks with a suggestion',
    verdict: ASKS,
    askUser: printModeAskUser,
    unasked: true,
    holds: 'print mode has no one to ask; allow it with --allowedTools "W(x)"',
  },
  {
    name: 'print mode, the tool asks without one',
    verdict: ASKS_BARE,
    askUser: printModeAskUser,
    unasked: true,
    holds: 'allow it with a rule for W in --allowedTools',
  },
  { name: 'print mode, an ask rule', rules: { ask: ['W'] }, askUser: printModeAskUser, unasked: true, holds: 'an allow rule cannot approve it' },
  {
    name: 'print mode, a PreToolUse hook asks',
    hooks: { preToolUse: async () => ({ kind: 'continue', decision: 'ask', reason: 'check first.' }) },
    askUser: printModeAskUser,
    unasked: true,
    holds: 'only a person can',
  },
  {
    name: 'print mode, a PreToolUse hook asks about a call the tool allows',
    verdict: { behavior: 'allow' },
    hooks: { preToolUse: async () => ({ kind: 'continue', decision: 'ask', reason: 'a person checks writes.' }) },
    askUser: printModeAskUser,
    unasked: true,
    holds: 'Why it asks: a person checks writes',
  },
  {
    name: 'dontAsk mode, the tool asks',
    mode: 'dontAsk',
    verdict: ASKS,
    unasked: true,
    holds: 'dontAsk mode denies whatever would ask; allow it with --allowedTools "W(x)"',
  },
  { name: 'dontAsk mode, the tool asks without a suggestion', mode: 'dontAsk', verdict: ASKS_BARE, unasked: true, holds: 'allow it with a rule for W' },
  { name: 'dontAsk mode, an ask rule', mode: 'dontAsk', rules: { ask: ['W'] }, unasked: true, holds: 'the rule W asks first' },
  { name: 'plan mode', mode: 'plan', holds: 'plan mode is on' },
  { name: 'a deny rule, in bypass mode', mode: 'bypassPermissions', rules: { deny: ['W'] }, holds: 'denied by the rule W' },
  { name: 'the tool denies', verdict: { behavior: 'deny', reason: 'W may not touch x.' }, holds: 'W may not touch x' },
  {
    name: 'the user says no and writes why',
    verdict: ASKS,
    askUser: async () => ({ behavior: 'deny', message: 'Not now, use y instead.' }),
    holds: 'the user said no and wrote: Not now, use y instead',
  },
  { name: 'the user says no', verdict: ASKS, askUser: async () => ({ behavior: 'deny' }), holds: 'the user was asked and said no' },
  {
    name: 'a PermissionRequest hook says no',
    verdict: ASKS,
    hooks: { permissionRequest: async () => ({ behavior: 'deny', message: 'Blocked by policy.' }) },
    holds: 'Blocked by policy',
  },
];

function envFor(c: Case): RunnerEnv {
  const rules = emptyRules();
  for (const list of ['allow', 'ask', 'deny'] as const) for (const r of c.rules?.[list] ?? []) rules[list].push(parseRule(r, 'projectSettings'));
  const { env } = fakeEnv({
    tools: [fakeTool({ name: 'W', verdict: c.verdict ?? ASKS_BARE })],
    mode: c.mode ?? 'default',
    rules,
    hooks: { ...noHooks, ...c.hooks },
  });
  if (c.askUser) env.askUser = c.askUser;
  return env;
}

async function refusalFor(c: Case): Promise<string> {
  const env = envFor(c);
  const prepared = prepareCall({ id: 'toolu_w', name: 'W', input: { id: 'x' } }, env);
  if (prepared.kind === 'done') throw new Error('refused before the permission gate');
  const out = await executeCall(prepared, env, new AbortController().signal);
  expect(out.result.isError).toBe(true);
  return String(out.result.content);
}

describe('refusal texts', () => {
  it.each(CASES)('$name: names the gate, says why, and ends each sentence once', async (c) => {
    const text = await refusalFor(c);
    expect(text).toMatch(/^<tool_use_error>\[permission\] Permission to use W was denied: /);
    expect(text).toContain(c.holds);
    expect(text).not.toMatch(/\.\s*\.|[;:,]\s*\.|\.\s*[;:,]/);
    expect(text).toMatch(/[^.]\.<\/tool_use_error>$/);
    if (c.unasked) expect(text).not.toMatch(/said no|was asked/);
  });
});
