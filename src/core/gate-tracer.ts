/** Records each gate's verdict and how long it took, and tells the front ends as it goes. */
import { monotonicMs } from '../base/clock.js';
import type { AgentEvent, GateName, GateRecord, GateTrace, GateVerdict } from '../base/events.js';

export class Tracer {
  readonly trace: GateTrace = [];
  private last = monotonicMs();
  constructor(
    private readonly id: string,
    private readonly emit: (e: AgentEvent) => void,
    prior: GateTrace = [],
  ) {
    this.trace.push(...prior);
  }
  mark(gate: GateName, verdict: GateVerdict, detail?: string): GateRecord {
    const now = monotonicMs();
    const record: GateRecord = { gate, verdict, durationMs: Math.round((now - this.last) * 100) / 100, ...(detail ? { detail } : {}) };
    this.last = now;
    this.trace.push(record);
    this.emit({ type: 'gate', toolUseId: this.id, record });
    return record;
  }
}
