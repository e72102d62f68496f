/**
 * One call judged by today's gates without running it: find, parse, validate, the PreToolUse hooks
 * (when the dry env has them) and the permission gate, through the real gate runner. The tool's
 * `call` is replaced by a stop, and a call that would ask a person is answered "not asked", so the
 * trace says what would have happened and nothing happens. A validation refusal is noted and the
 * call goes on to the permission gate: validation depends on the files as they are now (an Edit
 * needs a Read first), and the question here is the policy's answer.
 */
import type { GateName, GateRecord, GateTrace } from '../../base/events.js';
import type { ParsedRule } from '../../base/rule-parse.js';
import { formatRule } from '../../base/rule-parse.js';
import type { Tool } from '../../base/tool.js';
import { errorMessage } from '../../base/errors.js';
import { ruleLocation } from '../../settings/rule-location.js';
import { executeCall, prepareCall, type RunnerEnv } from '../tool-runner.js';
import { dryState, type DryEnv } from './dry-env.js';

export type Decision = 'allow' | 'ask' | 'deny' | 'refused';

export interface RuleOrigin {
  rule: string;
  list: 'allow' | 'ask' | 'deny';
  source: string;
  file?: string;
  line?: number;
}

export interface Verdict {
  decision: Decision;
  /** The gate that decided. */
  gate: GateName;
  /** Who decided, as the trace names it (`deny rule Bash(rm *) [projectSettings]`, `tool default: read-only command`). */
  by: string;
  /** The rule that decided, with its file and line, when a rule did. */
  rule?: RuleOrigin;
  /** Why, in the words the model or the person would read. */
  reason?: string;
  /** For a call that would ask: the rules a "don't ask again" would save, when an allow rule can approve it. */
  suggestions?: string[];
  trace: GateTrace;
  /** What validation would say today (the call was still judged). */
  notes: string[];
}

const NOT_ASKED = 'dry run (nobody asked)';

/** Thrown where the tool would run; one instance (judging thousands of calls need not capture a stack each). */
const WOULD_RUN = new Error('dry run: the call stops before it runs');

/** The tool, its validation noted instead of obeyed (or skipped) and its execution replaced by a stop. */
function dryTool(tool: Tool, notes: string[], validate: boolean): Tool {
  const dry: Tool = Object.create(tool);
  dry.validateInput = async (input, ctx) => {
    if (!validate) return { ok: true };
    try {
      const v = (await tool.validateInput?.(input, ctx)) ?? { ok: true };
      if (!v.ok) notes.push(`validate: ${v.message}`);
    } catch (err) {
      notes.push(`validate: ${errorMessage(err)}`);
    }
    return { ok: true };
  };
  dry.call = async function* () {
    throw WOULD_RUN;
  };
  return dry;
}

const warmed = new WeakMap<DryEnv, Promise<unknown>>();

/** The tools' parsers loaded once (Bash's matches rules only once its parser is ready). */
function warm(env: DryEnv): Promise<unknown> {
  let w = warmed.get(env);
  if (!w) {
    w = Promise.all(env.tools.map((t) => t.warmUp?.().catch(() => {})));
    warmed.set(env, w);
  }
  return w;
}

export interface JudgeOptions {
  /**
   * Run the tools' own validation and note what it says (default true). Its answer depends on the
   * files as they are now and never changes the decision: a replay of many calls leaves it out.
   */
  validate?: boolean;
}

const unvalidated = new WeakMap<DryEnv, Tool[]>();

/** The env's tools made dry: once per env when validation is off (nothing is noted then), else per call. */
function dryTools(env: DryEnv, notes: string[], validate: boolean): Tool[] {
  if (validate) return env.tools.map((t) => dryTool(t, notes, true));
  let tools = unvalidated.get(env);
  if (!tools) {
    tools = env.tools.map((t) => dryTool(t, [], false));
    unvalidated.set(env, tools);
  }
  return tools;
}

const never = new AbortController().signal;

export async function judgeCall(env: DryEnv, call: { id?: string; name: string; input: unknown }, opts: JudgeOptions = {}): Promise<Verdict> {
  await warm(env);
  const notes: string[] = [];
  let reason: string | undefined;
  let suggestions: string[] | undefined;
  const runner: RunnerEnv = {
    tools: dryTools(env, notes, opts.validate !== false),
    state: dryState(env),
    permission: { mode: env.mode, rules: env.rules },
    hooks: env.hooks,
    askUser: async (request) => {
      reason = request.reason;
      if (request.ruleCanAllow && request.suggestions.length) suggestions = request.suggestions;
      return { behavior: 'deny', answeredBy: NOT_ASKED, nobodyAsked: true };
    },
    base: env.base,
    emit: (ev) => {
      if (ev.type === 'permission_denied' && reason === undefined) reason = ev.reason;
    },
  };
  const prepared = prepareCall({ id: call.id ?? 'dry', name: call.name, input: call.input }, runner);
  const trace = prepared.kind === 'done' ? prepared.outcome.trace : (await executeCall(prepared, runner, never)).trace;
  if (reason === undefined && prepared.kind === 'done') reason = trace[trace.length - 1]?.detail;
  return { ...readTrace(trace, env), ...(reason ? { reason } : {}), ...(suggestions ? { suggestions } : {}), trace, notes };
}

function readTrace(trace: GateTrace, env: DryEnv): Pick<Verdict, 'decision' | 'gate' | 'by' | 'rule'> {
  const perm = trace.find((r) => r.gate === 'permission');
  if (!perm) {
    const stop = [...trace].reverse().find((r) => r.verdict !== 'passed' && r.verdict !== 'skipped') ?? trace[trace.length - 1]!;
    return { decision: stop.verdict === 'denied' ? 'deny' : 'refused', gate: stop.gate, by: stop.detail ?? stop.verdict };
  }
  const by = permissionBy(perm);
  const decision: Decision = perm.verdict === 'allowed' ? 'allow' : by.asked ? 'ask' : 'deny';
  const rule = ruleOf(by.text, env);
  return { decision, gate: 'permission', by: by.text, ...(rule ? { rule } : {}) };
}

function permissionBy(r: GateRecord): { text: string; asked: boolean } {
  const detail = r.detail ?? '';
  const suffix = ` → ${NOT_ASKED}`;
  if (r.verdict === 'denied' && detail.endsWith(suffix)) return { text: detail.slice(0, -suffix.length), asked: true };
  return { text: detail, asked: false };
}

/** The rule a trace names (`deny rule Bash(rm *) [projectSettings]`, see describeRule), found among the env's rules. */
function ruleOf(by: string, env: DryEnv): RuleOrigin | undefined {
  const m = /\b(allow|ask|deny) rule (.+?) \[(\w+)\]/.exec(by);
  if (!m) return undefined;
  const list = m[1] as RuleOrigin['list'];
  const found = env.rules[list].find((r: ParsedRule) => formatRule(r) === m[2] && r.source === m[3]);
  const at = found ? ruleLocation(found, list) : undefined;
  return { rule: m[2]!, list, source: m[3]!, ...(at?.file ? { file: at.file } : {}), ...(at?.line ? { line: at.line } : {}) };
}
