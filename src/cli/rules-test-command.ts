/**
 * `wicket rules test`: the calls recorded in this project's sessions, judged again by today's
 * settings (and, with --settings, by a candidate file in place of `.claude/settings.json`), without
 * running any. Prints each call whose decision differs; exit 1 when one does, so that CI can check
 * a change to the policy.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { memoizeRealPaths } from '../permissions/real-path.js';
import { dryEnv } from '../core/policy/dry-env.js';
import { projectPlaces, sinceTime } from '../core/policy/places.js';
import { recordedCalls } from '../core/policy/recorded.js';
import { replay } from '../core/policy/replay.js';
import { RULES_USAGE, settingsProblems } from './rules-common.js';
import { formatReplay, replayJson } from './rules-format.js';

export async function runRulesTest(args: string[]): Promise<number> {
  // This process judges many calls and runs none: a path's real location is looked up once.
  memoizeRealPaths();
  const { values } = process.getBuiltinModule('node:util').parseArgs({
    args,
    options: {
      settings: { type: 'string' },
      since: { type: 'string' },
      session: { type: 'string', multiple: true },
      hooks: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const sinceMs = values.since === undefined ? undefined : sinceTime(values.since);
  if (values.since !== undefined && sinceMs === undefined) {
    process.stderr.write(`wicket: rules test: --since ${JSON.stringify(values.since)}: give a span (30d, 12h, 45m) or a date\n${RULES_USAGE}\n`);
    return 2;
  }
  const cwd = process.cwd();
  if (values.settings !== undefined && !existsSync(path.resolve(cwd, values.settings))) {
    process.stderr.write(`wicket: rules test: --settings ${values.settings}: no such file\n`);
    return 2;
  }
  const calls = recordedCalls(projectPlaces(cwd, process.env), { ...(sinceMs !== undefined ? { sinceMs } : {}), sessions: values.session ?? [] });
  const names = calls.map((c) => c.name);
  const hooks = values.hooks === true;
  const current = dryEnv({ cwd, env: process.env, hooks, mcpNames: names });
  const candidate = values.settings ? dryEnv({ cwd, env: process.env, hooks, mcpNames: names, candidate: values.settings }) : undefined;
  const bad = settingsProblems(current) ?? (candidate ? settingsProblems(candidate) : undefined);
  if (bad !== undefined) return bad;
  const report = await replay(calls, current, candidate);
  if (values.json) process.stdout.write(`${JSON.stringify(replayJson(report), null, 2)}\n`);
  else process.stdout.write(formatReplay(report, current.cwd));
  return report.flips.length ? 1 : 0;
}
