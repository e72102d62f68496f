/**
 * `wicket rules explain|test|suggest`: the permission policy, tested like code. `explain` prints the
 * gate trace one call would get now; `test` replays the calls of past sessions through today's gates
 * (or a candidate settings file's) and lists the decisions that differ; `suggest` proposes allow
 * rules from what people approved. Nothing is run: tools stop before their execution.
 */
import { homedir } from 'node:os';
import { errorMessage } from '../base/errors.js';
import { callFromRule } from '../core/policy/call-from-rule.js';
import { dryEnv } from '../core/policy/dry-env.js';
import { judgeCall } from '../core/policy/judge.js';
import { formatVerdict } from './rules-format.js';
import { RULES_USAGE, settingsProblems } from './rules-common.js';

export async function runRulesCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  try {
    if (sub === 'explain') return await runExplain(rest);
    if (sub === 'test') return await (await import('./rules-test-command.js')).runRulesTest(rest);
    if (sub === 'suggest') return await (await import('./rules-suggest-command.js')).runRulesSuggest(rest);
    if (sub === '-h' || sub === '--help' || sub === undefined) {
      process.stdout.write(`${RULES_USAGE}\n`);
      return sub === undefined ? 2 : 0;
    }
    process.stderr.write(`wicket: rules: unknown command ${JSON.stringify(sub)}\n${RULES_USAGE}\n`);
    return 2;
  } catch (err) {
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`wicket: rules ${sub}: ${err.message}\n${RULES_USAGE}\n`);
      return 2;
    }
    process.stderr.write(`wicket: rules ${sub}: ${errorMessage(err)}\n`);
    return 1;
  }
}

async function runExplain(args: string[]): Promise<number> {
  const { values, positionals } = process
    .getBuiltinModule('node:util')
    .parseArgs({ args, allowPositionals: true, options: { hooks: { type: 'boolean' }, json: { type: 'boolean' } } });
  const cwd = process.cwd();
  const call = describedCall(positionals, cwd);
  if ('error' in call) {
    process.stderr.write(`wicket: rules explain: ${call.error}\n${RULES_USAGE}\n`);
    return 2;
  }
  const env = dryEnv({ cwd, env: process.env, hooks: values.hooks === true, mcpNames: [call.name] });
  const bad = settingsProblems(env);
  if (bad !== undefined) return bad;
  const verdict = await judgeCall(env, call);
  if (values.json) process.stdout.write(`${JSON.stringify({ tool: call.name, input: call.input, ...verdict }, null, 2)}\n`);
  else process.stdout.write(formatVerdict(call.name, call.input, verdict, env.cwd));
  return 0;
}

function describedCall(positionals: string[], cwd: string): { name: string; input: unknown } | { error: string } {
  if (positionals.length === 1) return callFromRule(positionals[0]!, cwd, process.env.HOME ?? homedir());
  if (positionals.length !== 2) return { error: 'give one rule, or a tool name and its input as JSON' };
  try {
    return { name: positionals[0]!, input: JSON.parse(positionals[1]!) };
  } catch (err) {
    return { error: `the input is not JSON: ${errorMessage(err)}` };
  }
}
