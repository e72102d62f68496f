/**
 * A policy dry-run: recorded calls judged again by today's gates (and by a candidate's), and the
 * calls whose decision differs: "allow → deny", "ask → allow", with who decided each time. Equal
 * calls are judged once.
 */
import type { DryEnv } from './dry-env.js';
import { judgeCall, type Decision, type RuleOrigin, type Verdict } from './judge.js';
import type { Recorded, RecordedCall } from './recorded.js';

export interface Side {
  decision: Decision | Recorded;
  by?: string;
  rule?: RuleOrigin;
}

export interface Flip {
  call: RecordedCall;
  before: Side;
  after: Side;
}

export interface ReplayReport {
  /** What was compared: the recorded decisions with today's, or today's with the candidate's. */
  compared: 'recorded-vs-current' | 'current-vs-candidate';
  calls: number;
  sessions: number;
  /** How many calls each decision got (today's, or the candidate's). */
  decisions: Record<Decision, number>;
  flips: Flip[];
}

/** Judges equal calls (same tool, same input) once; the tools' own validation is left out (see JudgeOptions). */
export class CachedJudge {
  private readonly seen = new Map<string, Promise<Verdict>>();
  constructor(readonly env: DryEnv) {}
  judge(call: { name: string; input: unknown }): Promise<Verdict> {
    const key = `${call.name}\0${JSON.stringify(call.input)}`;
    let v = this.seen.get(key);
    if (!v) {
      v = judgeCall(this.env, call, { validate: false });
      this.seen.set(key, v);
    }
    return v;
  }
}

function side(v: Verdict): Side {
  return { decision: v.decision, by: v.by, ...(v.rule ? { rule: v.rule } : {}) };
}

/** Whether a recorded decision and today's differ. `ran` (allowed or approved) differs only from a refusal. */
function differs(recorded: Recorded, now: Decision): boolean {
  if (recorded === 'unknown' || recorded === 'refused') return false;
  if (recorded === 'ran') return now === 'deny' || now === 'refused';
  return recorded !== now;
}

export async function replay(calls: readonly RecordedCall[], current: DryEnv, candidate?: DryEnv): Promise<ReplayReport> {
  const now = new CachedJudge(current);
  const next = candidate ? new CachedJudge(candidate) : undefined;
  const decisions: Record<Decision, number> = { allow: 0, ask: 0, deny: 0, refused: 0 };
  const flips: Flip[] = [];
  for (const call of calls) {
    const a = await now.judge(call);
    if (next) {
      const b = await next.judge(call);
      decisions[b.decision]++;
      if (a.decision !== b.decision) flips.push({ call, before: side(a), after: side(b) });
      continue;
    }
    decisions[a.decision]++;
    if (differs(call.recorded, a.decision))
      flips.push({ call, before: { decision: call.recorded, ...(call.recordedBy ? { by: call.recordedBy } : {}) }, after: side(a) });
  }
  return {
    compared: next ? 'current-vs-candidate' : 'recorded-vs-current',
    calls: calls.length,
    sessions: new Set(calls.map((c) => c.sessionId)).size,
    decisions,
    flips,
  };
}
