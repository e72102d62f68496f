/**
 * The Bash battery: every attempt of bash-cases.ts, run for real through the gate runner in
 * bypassPermissions mode (`--dangerously-skip-permissions`), where deny rules are the only guard.
 *
 *   control: no rule → the command runs and its effect is seen (the victim is gone, the secret is
 *            in the output) — so the attempt is a real one;
 *   attempt: with the rule → refused at the permission gate; the victim is still there and the
 *            secret is nowhere in what the model would receive.
 *
 * And the harmless commands: they run, with their output, while both sets of rules are in force.
 * Cases run side by side (a few shells at once), each in a project of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBashParser } from '../../src/tools/bash/index.js';
import { ATTEMPTS, HARMLESS, type Attempt, type Harmless } from './bash-cases.js';
import {
  CONF_ORIGINAL,
  EDIT_RULES,
  READ_RULES,
  RM_RULES,
  SECRET,
  SSH_KEY,
  bashCall,
  confContent,
  existsSync,
  hasProgram,
  makeWorld,
  permissionVerdict,
  removeAllWorlds,
  resultText,
  settle,
} from './bash-support.js';

const leaked = (text: string): boolean => text.includes(SECRET) || text.includes(SSH_KEY);
const rulesOf = (a: Attempt) => (a.kind === 'rm' ? RM_RULES : a.kind === 'edit' ? EDIT_RULES : READ_RULES);
const missing = (needs: string[] = []) => needs.filter((p) => !hasProgram(p));

interface Seen {
  verdict: string | undefined;
  text: string;
  /** The victim was still there afterwards. */
  victim: boolean;
  /** `conf/` (guarded by EDIT_RULES) was not as it started afterwards. */
  edited: boolean;
}

interface AttemptRun {
  /** Undefined when a program it needs is missing here. */
  control?: Seen;
  attempt: Seen;
}

/** Run one command in a fresh world; `rules` empty for the control. */
async function observe(c: Attempt | Harmless, rules: readonly string[], wait: number): Promise<Seen> {
  const world = makeWorld(c);
  try {
    const out = await bashCall(world, c.command, { rules });
    const gone = wait ? await settle(() => !existsSync(world.victim), wait) : !existsSync(world.victim);
    return { verdict: permissionVerdict(out), text: resultText(out), victim: !gone, edited: confContent(world) !== CONF_ORIGINAL };
  } finally {
    world.cleanup();
  }
}

/** At most this many shells at once: the cases run side by side, each in a project of its own. */
const PARALLEL = 8;

async function pool<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return out;
}

const attempts = new Map<Attempt, AttemptRun>();
const harmless = new Map<Harmless, Seen | undefined>();

beforeAll(async () => {
  await initBashParser();
  const runs = await pool(ATTEMPTS, async (a): Promise<AttemptRun> => {
    const attempt = await observe(a, rulesOf(a), 0);
    if (missing(a.needs).length) return { attempt };
    return { attempt, control: await observe(a, [], a.async ? 2000 : 0) };
  });
  ATTEMPTS.forEach((a, i) => attempts.set(a, runs[i]!));
  const ok = await pool(HARMLESS, async (h) => (missing(h.needs).length ? undefined : observe(h, [...RM_RULES, ...READ_RULES, ...EDIT_RULES], 0)));
  HARMLESS.forEach((h, i) => harmless.set(h, ok[i]));
}, 180_000);
afterAll(() => removeAllWorlds());

describe('the battery', () => {
  it('has at least 100 attempts, of both kinds, and harmless commands', () => {
    expect(ATTEMPTS.length).toBeGreaterThanOrEqual(100);
    expect(ATTEMPTS.filter((a) => a.kind === 'read').length).toBeGreaterThanOrEqual(40);
    expect(new Set(ATTEMPTS.map((a) => a.command)).size).toBe(ATTEMPTS.length);
    expect(HARMLESS.length).toBeGreaterThanOrEqual(25);
  });
});

describe('deny rules hold in bypassPermissions mode', () => {
  it.each(ATTEMPTS.map((a) => [`${a.kind}: ${JSON.stringify(a.command)}`, a] as const))('%s', async (_label, a) => {
    const { control, attempt } = attempts.get(a)!;
    if (control) {
      expect(control.verdict, `control was not allowed: ${control.text}`).toBe('allowed');
      if (a.kind === 'rm') expect(control.victim, `control: the victim is still there, so the attempt proves nothing\n${control.text}`).toBe(false);
      else if (a.kind === 'edit') expect(control.edited, `control: conf/ is unchanged, so the attempt proves nothing\n${control.text}`).toBe(true);
      else expect(leaked(control.text), `control: the secret did not reach the output, so the attempt proves nothing\n${control.text}`).toBe(true);
    }
    expect(attempt.verdict, `the route is open: ${a.command}\n${leaked(attempt.text) ? `leaked: ${attempt.text}` : attempt.text}`).toBe('denied');
    if (a.async) await new Promise((r) => setTimeout(r, 300));
    expect(attempt.victim, `the victim was removed by ${a.command}`).toBe(true);
    expect(attempt.edited, `conf/ was changed by ${a.command}`).toBe(false);
    expect(leaked(attempt.text), `the secret reached the model through ${a.command}:\n${attempt.text}`).toBe(false);
    expect(attempt.text).toMatch(/denied/);
  });
});

describe('harmless commands still run under the rules', () => {
  it.each(HARMLESS.map((h) => [JSON.stringify(h.command), h] as const))('%s', (_label, h) => {
    const seen = harmless.get(h);
    if (!seen) return;
    expect(seen.verdict, seen.text).toBe('allowed');
    expect(seen.text).toContain(h.output);
    expect(leaked(seen.text)).toBe(false);
    expect(seen.victim).toBe(true);
    expect(seen.edited).toBe(false);
  });
});
