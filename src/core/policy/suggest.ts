/**
 * Allow rules mined from past sessions: the calls people approved (asked and answered yes, or ran
 * in a Claude Code session) that today's gates would still ask about, grouped under the rule a
 * "don't ask again" would save for each. Each proposal has its count and the riskiest call it would
 * have let through without asking, so that a person sees the worst case before adding it.
 */
import type { Tool } from '../../base/tool.js';
import { findTool } from '../../tools/registry.js';
import type { DryEnv } from './dry-env.js';
import type { RecordedCall } from './recorded.js';
import { CachedJudge } from './replay.js';

export interface Proposal {
  rule: string;
  /** How many approved calls it covers. */
  count: number;
  /** The call among them that can do the most harm (destructive, then writing, then longest). */
  riskiest: { name: string; input: unknown; sessionId: string };
}

function approved(c: RecordedCall): boolean {
  return c.recorded === 'ran' || (c.recorded === 'ask' && c.approved === true);
}

/** Higher is riskier: what the tool says of the call, then how much it says. */
export function riskOf(tool: Tool | undefined, input: unknown): number {
  let score = JSON.stringify(input ?? {}).length / 10_000;
  try {
    if (tool?.isDestructive?.(input)) score += 2;
    if (tool && !tool.isReadOnly(input)) score += 1;
  } catch {
    score += 1;
  }
  return score;
}

export async function suggestAllowRules(calls: readonly RecordedCall[], env: DryEnv, opts: { min?: number; max?: number } = {}): Promise<Proposal[]> {
  const judge = new CachedJudge(env);
  const byRule = new Map<string, Proposal & { risk: number }>();
  for (const call of calls) {
    if (!approved(call)) continue;
    const v = await judge.judge(call);
    if (v.decision !== 'ask' || !v.suggestions?.length) continue;
    const risk = riskOf(findTool(env.tools, call.name), call.input);
    for (const rule of v.suggestions) {
      const p = byRule.get(rule);
      const riskiest = { name: call.name, input: call.input, sessionId: call.sessionId };
      if (!p) byRule.set(rule, { rule, count: 1, riskiest, risk });
      else {
        p.count++;
        if (risk > p.risk) Object.assign(p, { riskiest, risk });
      }
    }
  }
  return [...byRule.values()]
    .filter((p) => p.count >= (opts.min ?? 2))
    .sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule))
    .slice(0, opts.max ?? 10)
    .map(({ risk: _risk, ...p }) => p);
}
