/**
 * Figures of one run that Claude Code's result line carries beside its cost and turns, counted from
 * the run's events: how long the model took to its first word (`ttft_ms`), how many answers the
 * model refused (`safety_stops`), what became of the sub-agents it started (`subagent_stats`), and
 * fast mode's state (wicket has none: always off).
 */
import type { AgentEvent, NoticeStatus } from '../base/events.js';

export interface SubagentStats {
  spawned: number;
  /** The `run_in_background` each spawned agent was asked with: true, false, or not given. */
  requested: { background: number; foreground: number; unset: number };
  started_in_background: number;
  /** Sub-agents cannot start sub-agents in wicket: 1 once one ran, else 0. */
  max_depth: number;
  spawned_by_subagents: number;
  completed: number;
  failed: number;
  /** parent: the run (or the model, with TaskStop) stopped it; system: a time limit did. */
  killed: { parent: number; user: number; system: number };
  /** wicket has no depth, concurrency or budget limit on sub-agents: these stay 0. */
  refused: { depth_limit: number; concurrency_limit: number; budget: number };
  by_type: Record<string, number>;
}

export interface RunFigureFields {
  fast_mode_state: 'off';
  ttft_ms?: number;
  safety_stops: number;
  subagent_stats: SubagentStats;
}

const emptyStats = (): SubagentStats => ({
  spawned: 0,
  requested: { background: 0, foreground: 0, unset: 0 },
  started_in_background: 0,
  max_depth: 0,
  spawned_by_subagents: 0,
  completed: 0,
  failed: 0,
  killed: { parent: 0, user: 0, system: 0 },
  refused: { depth_limit: 0, concurrency_limit: 0, budget: 0 },
  by_type: {},
});

const AGENT_TOOL = 'Agent';

/** Counts a run's figures as its events go by (`see`), and gives them for the result line (`fields`). */
export class RunFigures {
  private readonly startedAt: number;
  private ttft: number | undefined;
  private safetyStops = 0;
  private readonly stats = emptyStats();
  /** Background agents started by this run's calls: their task ids, and the calls that started them. */
  private readonly background = new Set<string>();
  private readonly backgroundCalls = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  see(ev: AgentEvent): void {
    if (ev.type === 'stream_event') {
      if (this.ttft === undefined && isFirstWord(ev.event)) this.ttft = this.now() - this.startedAt;
    } else if (ev.type === 'turn_end') {
      if (ev.stopReason === 'refusal') this.safetyStops++;
    } else if (ev.type === 'tool_result' && ev.name === AGENT_TOOL) {
      this.agentCall(ev);
    } else if (ev.type === 'task_started' && ev.taskType === 'local_agent') {
      this.background.add(ev.taskId);
      if (ev.toolUseId) this.backgroundCalls.add(ev.toolUseId);
      this.stats.started_in_background++;
    } else if (ev.type === 'task_notification' && this.background.delete(ev.notice.taskId)) {
      this.ended(ev.notice.status, ev.notice.silent === true);
    }
  }

  fields(): RunFigureFields {
    const stats = structuredClone(this.stats);
    stats.max_depth = stats.spawned > 0 ? 1 : 0;
    return { fast_mode_state: 'off', ...(this.ttft !== undefined ? { ttft_ms: this.ttft } : {}), safety_stops: this.safetyStops, subagent_stats: stats };
  }

  /** An Agent call that reached its execute gate started a sub-agent; a foreground one has ended with its result. */
  private agentCall(ev: Extract<AgentEvent, { type: 'tool_result' }>): void {
    const executed = ev.trace.find((r) => r.gate === 'execute');
    if (!executed || !['passed', 'failed', 'aborted'].includes(executed.verdict)) return;
    const input = (ev.input ?? {}) as { run_in_background?: unknown; subagent_type?: unknown };
    const s = this.stats;
    s.spawned++;
    const asked = input.run_in_background;
    if (asked === true) s.requested.background++;
    else if (asked === false) s.requested.foreground++;
    else s.requested.unset++;
    const type = typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose';
    s.by_type[type] = (s.by_type[type] ?? 0) + 1;
    // A background agent's start is told (task_started) while its call runs; its end comes with its task notice.
    if (executed.verdict === 'passed' && this.backgroundCalls.has(ev.toolUseId)) return;
    if (executed.verdict === 'aborted') s.killed.parent++;
    else if (executed.verdict === 'failed' || ev.result.isError) s.failed++;
    else s.completed++;
  }

  private ended(status: NoticeStatus, byModel: boolean): void {
    if (status === 'completed') this.stats.completed++;
    else if (status === 'failed') this.stats.failed++;
    else if (byModel) this.stats.killed.parent++;
    else this.stats.killed.system++;
  }
}

/** The first piece of the answer: a text, thinking or tool-input delta. */
function isFirstWord(event: unknown): boolean {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'content_block_delta';
}
