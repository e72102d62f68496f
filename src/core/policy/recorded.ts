/**
 * The tool calls recorded in a project's saved sessions, wicket's and Claude Code's, each with the
 * decision it got then: from wicket's gate trace when the session has one, else read from the
 * result the model was given (a refusal's words). Claude Code does not record whether a call that
 * ran was allowed by a rule or approved by a person: such a call is `ran`.
 */
import type { GateTrace } from '../../base/events.js';
import { readFileSync } from 'node:fs';
import { sessionFiles, type SessionPlaces } from '../../session/session-list.js';
import { WICKET_RECORD } from '../../session/transcript.js';

/** `ran`: it ran, allowed by a rule or by a person (the transcript does not say which); `unknown`: no result was recorded. */
export type Recorded = 'allow' | 'ask' | 'deny' | 'refused' | 'ran' | 'unknown';

export interface RecordedCall {
  sessionId: string;
  toolUseId: string;
  name: string;
  input: unknown;
  /** ISO time of the record, when it has one. */
  timestamp?: string;
  recorded: Recorded;
  /** For a call that asked: whether the answer was yes. */
  approved?: boolean;
  /** Who decided then, when the trace says. */
  recordedBy?: string;
}

export interface RecordedFilter {
  /** Only calls at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** Only these sessions (ids). */
  sessions?: readonly string[];
}

type Entry = Record<string, unknown>;
type Block = Record<string, unknown>;

function blocks(e: Entry): Block[] {
  const content = (e.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? content.filter((b): b is Block => !!b && typeof b === 'object') : [];
}

function resultText(b: Block): string {
  const c = b.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (x && typeof x === 'object' && typeof x.text === 'string' ? x.text : '')).join('\n');
  return '';
}

/** The decision a result's words tell, when no trace was kept. */
export function decisionFromResult(text: string, isError: boolean): Recorded {
  if (!isError) return 'ran';
  if (/<tool_use_error>\[(find|parse|validate)\]|InputValidationError|^No such tool/m.test(text)) return 'refused';
  if (/doesn't want to proceed|the user said no|was rejected/i.test(text)) return 'ask';
  if (/<tool_use_error>\[(permission|hooks)\]|Permission to use .* (was|has been) denied|haven't granted it yet|Blocked by a PreToolUse hook/i.test(text))
    return 'deny';
  return 'ran';
}

/**
 * The decision Claude Code writes beside a tool result (`permissionDecision`: `decision` accept or
 * reject, `source` config, user, hook…): a person's answer is an ask.
 */
export function decisionFromRecord(d: unknown): { recorded: Recorded; approved?: boolean; by?: string } | undefined {
  if (!d || typeof d !== 'object') return undefined;
  const { decision, source, ruleSource } = d as Record<string, unknown>;
  if (typeof decision !== 'string') return undefined;
  const accepted = decision === 'accept' || decision === 'allow';
  const by = [source, ruleSource].filter((x) => typeof x === 'string').join(' ') || undefined;
  if (source === 'user') return { recorded: 'ask', approved: accepted, ...(by ? { by } : {}) };
  return { recorded: accepted ? 'allow' : 'deny', ...(by ? { by } : {}) };
}

/** The decision a wicket gate trace records. */
export function decisionFromTrace(trace: GateTrace): { recorded: Recorded; by?: string; approved?: boolean } {
  const perm = trace.find((r) => r.gate === 'permission');
  if (perm) {
    const detail = perm.detail ?? '';
    const asked = detail.startsWith('asked (') || / \u2192 /.test(detail);
    if (perm.verdict === 'allowed') return { recorded: asked ? 'ask' : 'allow', by: detail, ...(asked ? { approved: true } : {}) };
    return { recorded: asked ? 'ask' : 'deny', by: detail, ...(asked ? { approved: false } : {}) };
  }
  const stop = trace.find((r) => r.verdict !== 'passed' && r.verdict !== 'skipped' && r.verdict !== 'rewritten');
  if (stop?.verdict === 'denied') return { recorded: 'deny', ...(stop.detail ? { by: stop.detail } : {}) };
  if (stop && (stop.gate === 'find' || stop.gate === 'parse' || stop.gate === 'validate' || stop.gate === 'hooks')) return { recorded: 'refused' };
  return { recorded: 'unknown' };
}

/** The calls of one transcript file, in the order they were made. */
export function callsOfEntries(sessionId: string, entries: readonly Entry[], filter: RecordedFilter = {}): RecordedCall[] {
  const calls = new Map<string, RecordedCall>();
  const results = new Map<string, Recorded>();
  const traces = new Map<string, { recorded: Recorded; by?: string; approved?: boolean }>();
  for (const e of entries) {
    if (e.type === WICKET_RECORD.gateTrace && typeof e.toolUseId === 'string' && Array.isArray(e.trace)) {
      traces.set(e.toolUseId, decisionFromTrace(e.trace as GateTrace));
      continue;
    }
    if (e.type === 'assistant') {
      for (const b of blocks(e)) {
        if (b.type !== 'tool_use' || typeof b.id !== 'string' || typeof b.name !== 'string' || calls.has(b.id)) continue;
        const timestamp = typeof e.timestamp === 'string' ? e.timestamp : undefined;
        calls.set(b.id, { sessionId, toolUseId: b.id, name: b.name, input: b.input ?? {}, ...(timestamp ? { timestamp } : {}), recorded: 'unknown' });
      }
    } else if (e.type === 'user') {
      const own = blocks(e).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string');
      for (const b of own) results.set(b.tool_use_id as string, decisionFromResult(resultText(b), b.is_error === true));
      const told = own.length === 1 ? decisionFromRecord(e.permissionDecision) : undefined;
      if (told && !traces.has(own[0]!.tool_use_id as string)) traces.set(own[0]!.tool_use_id as string, told);
    }
  }
  const out: RecordedCall[] = [];
  for (const c of calls.values()) {
    if (filter.sinceMs !== undefined && c.timestamp && Date.parse(c.timestamp) < filter.sinceMs) continue;
    const trace = traces.get(c.toolUseId);
    const result = results.get(c.toolUseId) ?? 'unknown';
    if (trace && trace.recorded !== 'unknown') {
      const { by, approved } = trace;
      out.push({ ...c, recorded: trace.recorded, ...(by ? { recordedBy: by } : {}), ...(approved !== undefined ? { approved } : {}) });
    } else out.push({ ...c, recorded: result, ...(result === 'ask' ? { approved: false } : {}) });
  }
  return out;
}

/** The records that can hold a call, its result or its trace; other lines (attachments, snapshots) are not parsed at all. */
const CALL_LINE = /"tool_use"|"tool_result"|"wicket-gate-trace"/;

/** A transcript's records that bear on calls; a torn line is skipped. */
export function callEntries(file: string): Entry[] {
  const out: Entry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!CALL_LINE.test(line)) continue;
    try {
      const entry = JSON.parse(line);
      if (entry && typeof entry === 'object' && !Array.isArray(entry)) out.push(entry);
    } catch {
      // a torn line after a crash
    }
  }
  return out;
}

/** Every recorded call of the project's sessions (newest session first), as the filter narrows them. */
export function recordedCalls(places: SessionPlaces, filter: RecordedFilter = {}): RecordedCall[] {
  const files = sessionFiles(places).filter(
    (f) => (!filter.sessions?.length || filter.sessions.includes(f.id)) && (filter.sinceMs === undefined || f.mtimeMs >= filter.sinceMs),
  );
  return files.flatMap((f) => {
    try {
      return callsOfEntries(f.id, callEntries(f.file), filter);
    } catch {
      return [];
    }
  });
}
