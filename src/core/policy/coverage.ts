/**
 * What a "don't ask again" rule would have allowed among this project's past calls of the same
 * tool: the calls today's settings do not allow but the settings plus the rule would. Shown before
 * the rule is saved, so a person sees how far it reaches.
 */
import { parseRule } from '../../base/rule-parse.js';
import type { DryEnv } from './dry-env.js';
import { dryEnv } from './dry-env.js';
import { projectPlaces } from './places.js';
import { recordedCalls } from './recorded.js';
import { CachedJudge } from './replay.js';

export interface Coverage {
  /** Distinct past calls the rule would let through without asking. */
  count: number;
  /** A few of them, as one line each. */
  examples: string[];
  /** What the rule would never allow, in one line (never-allowed.ts). */
  never?: string;
}

/** The newest calls looked at: a prompt must not wait on a long history. */
const MAX_CALLS = 2000;

function oneLine(input: unknown): string {
  const i = input as Record<string, unknown>;
  const main = i?.command ?? i?.file_path ?? i?.url;
  return typeof main === 'string' ? main : JSON.stringify(input);
}

export async function pastCallsAllowedBy(
  where: { cwd: string; env: Record<string, string | undefined> },
  toolName: string,
  rules: readonly string[],
): Promise<Coverage> {
  const calls = recordedCalls(projectPlaces(where.cwd, where.env))
    .filter((c) => c.name === toolName)
    .slice(0, MAX_CALLS);
  if (!calls.length) return { count: 0, examples: [] };
  const now: DryEnv = dryEnv({ cwd: where.cwd, env: where.env });
  const added = rules.map((r) => parseRule(r, 'session'));
  const withRule = new CachedJudge({ ...now, rules: { ...now.rules, allow: [...now.rules.allow, ...added] } });
  const before = new CachedJudge(now);
  const seen = new Set<string>();
  const examples: string[] = [];
  for (const c of calls) {
    const key = JSON.stringify(c.input);
    if (seen.has(key)) continue;
    seen.add(key);
    if ((await before.judge(c)).decision === 'allow' || (await withRule.judge(c)).decision !== 'allow') continue;
    examples.push(oneLine(c.input));
  }
  return { count: examples.length, examples: examples.slice(0, 3) };
}
