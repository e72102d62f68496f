/**
 * `wicket rules suggest`: a short allow list mined from this project's sessions, each rule with how
 * many approved calls it covers and the riskiest of them. It prints; it saves nothing.
 */
import { memoizeRealPaths } from '../permissions/real-path.js';
import { dryEnv } from '../core/policy/dry-env.js';
import { projectPlaces, sinceTime } from '../core/policy/places.js';
import { recordedCalls } from '../core/policy/recorded.js';
import { suggestAllowRules } from '../core/policy/suggest.js';
import { proposalsText } from '../core/policy/suggest-text.js';
import { RULES_USAGE, settingsProblems } from './rules-common.js';

export async function runRulesSuggest(args: string[]): Promise<number> {
  // This process judges many calls and runs none: a path's real location is looked up once.
  memoizeRealPaths();
  const { values } = process
    .getBuiltinModule('node:util')
    .parseArgs({ args, options: { since: { type: 'string' }, min: { type: 'string' }, json: { type: 'boolean' } } });
  const sinceMs = values.since === undefined ? undefined : sinceTime(values.since);
  const min = values.min === undefined ? 2 : Number(values.min);
  if ((values.since !== undefined && sinceMs === undefined) || !Number.isInteger(min) || min < 1) {
    process.stderr.write(`wicket: rules suggest: --since takes 30d, 12h, 45m or a date; --min a whole number from 1\n${RULES_USAGE}\n`);
    return 2;
  }
  const cwd = process.cwd();
  const calls = recordedCalls(projectPlaces(cwd, process.env), sinceMs !== undefined ? { sinceMs } : {});
  const env = dryEnv({ cwd, env: process.env, mcpNames: calls.map((c) => c.name) });
  const bad = settingsProblems(env);
  if (bad !== undefined) return bad;
  const proposals = await suggestAllowRules(calls, env, { min });
  process.stdout.write(values.json ? `${JSON.stringify(proposals, null, 2)}\n` : proposalsText(proposals));
  return 0;
}
