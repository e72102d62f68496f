/**
 * The three questions `tools check` asks of one tool (PRODUCT.md §1): what happens with nonsense
 * input, when a deny rule names it, and when it runs beside another call. Each answer is ok, FAIL or
 * skip, with its reason in words.
 */
import { errorMessage } from '../../../base/errors.js';
import { parseRule } from '../../../base/rule-parse.js';
import type { Tool } from '../../../base/tool.js';
import { inputJsonSchema } from '../../../tools/api-schema.js';
import { nonsenseInputs } from './nonsense.js';
import { probeRunner, probeTool, rulesWith } from './probe.js';
import { lastGate, permissionRecord, refusedBefore, runOne } from './run-calls.js';
import type { Sample } from './samples.js';
import type { Scratch } from './scratch.js';

export type Status = 'ok' | 'FAIL' | 'skip';

export interface Answer {
  status: Status;
  reason: string;
}

export interface CheckSetup {
  scratch: Scratch;
  env: Record<string, string | undefined>;
}

const ok = (reason: string): Answer => ({ status: 'ok', reason });
const fail = (reason: string): Answer => ({ status: 'FAIL', reason: short(reason) });

/** A reason of one readable line (an error may quote a huge input). */
export function short(text: string, max = 300): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** 1. Nonsense from the tool's own schema is refused at parse or validate, naming the gate, and never runs. */
export async function askNonsense(tool: Tool, sample: Sample, setup: CheckSetup): Promise<Answer> {
  const cases = nonsenseInputs(inputJsonSchema(tool), sample.input);
  let refused = 0;
  let odd = 0;
  for (const c of cases) {
    const probe = probeTool(tool, 'stop');
    const env = probeRunner(setup.scratch, probe.tool, { mode: 'default', rules: rulesWith(), env: setup.env });
    let at: ReturnType<typeof refusedBefore>;
    try {
      at = refusedBefore(await runOne(env, tool.name, c.input));
    } catch (err) {
      return fail(`${c.label}: the gates broke: ${errorMessage(err)}`);
    }
    if (c.mustRefuse && probe.calls > 0) return fail(`${c.label}: reached execution`);
    if (c.mustRefuse && !at) return fail(`${c.label}: not refused at parse or validate`);
    if (at) refused++;
    else odd++;
  }
  const must = cases.filter((c) => c.mustRefuse).length;
  const extra = odd ? `; ${odd} odd but valid (empty, huge, null byte) went on without error` : '';
  return ok(`${refused} of ${cases.length} inputs refused at parse/validate (all ${must} invalid ones)${extra}; none ran`);
}

/** The deny rules to try: the tool's name, its server's (MCP), and a specifier matching the sample. */
function denyRules(tool: Tool, sample: Sample): string[] {
  const rules = [tool.name];
  if (tool.mcpServer) rules.push(`mcp__${tool.name.split('__')[1]}`);
  if (sample.denySpecifier) rules.push(sample.denySpecifier);
  return rules;
}

/**
 * 2. A call a deny rule covers ends at the permission gate, even in bypassPermissions mode, and
 * never runs. The tool's own validation is left out here (an Edit needs a Read first): the
 * question is the permission gate's.
 */
export async function askDenied(tool: Tool, sample: Sample, setup: CheckSetup): Promise<Answer> {
  const rules = denyRules(tool, sample);
  for (const rule of rules) {
    const probe = probeTool(tool, 'stop', { skipValidation: true });
    const env = probeRunner(setup.scratch, probe.tool, { mode: 'bypassPermissions', rules: rulesWith([parseRule(rule, 'session')]), env: setup.env });
    let outcome: Awaited<ReturnType<typeof runOne>>;
    try {
      outcome = await runOne(env, tool.name, sample.input);
    } catch (err) {
      return fail(`deny ${rule}: the gates broke: ${errorMessage(err)}`);
    }
    if (probe.calls > 0) return fail(`deny ${rule}: the call ran`);
    const perm = permissionRecord(outcome);
    if (perm?.verdict !== 'denied' || !perm.detail?.includes('deny rule')) {
      const last = lastGate(outcome);
      return fail(`deny ${rule}: ended at ${last?.gate ?? 'no gate'} (${last?.verdict ?? '?'}${last?.detail ? `: ${last.detail}` : ''}), not by the rule`);
    }
  }
  return ok(`denied at the permission gate by ${rules.join(', ')} (bypass mode); nothing ran`);
}
