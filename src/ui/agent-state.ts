/**
 * The app's view of a session, built from core events: finished items (for <Static>), the live part,
 * the run status, gate traces and totals. Plain TypeScript, no React: the hook (hooks/use-agent.ts)
 * decides when a snapshot is rendered. Cheap per event: a delta only appends to a string.
 */
import type { AgentEvent } from '../base/events.js';
import { addToTotals, emptyTotals, type Totals } from '../core/run-prompt.js';
import { splitCompleted } from './markdown-text.js';
import { retryLine, retryStatus } from './retry-text.js';
import type { FinishedTool, HistoryItem, LiveState, LiveTool, NewItem, RunStatus, TraceEntry } from './types.js';

const MAX_TRACES = 100;
const TAIL_LINES = 5;
/** Tool results kept for the view (the full transcript shows them) are cut to this many characters (the model got the whole). */
const KEEP_RESULT_CHARS = 20_000;
/** Items written per frame: a burst (a resumed session, many results) is spread over frames. */
const ITEMS_PER_FRAME = 40;

export interface ViewSnapshot {
  items: HistoryItem[];
  live: LiveState;
  status: RunStatus;
}

export class AgentView {
  items: HistoryItem[] = [];
  live: LiveState = { text: '', continues: false, thinking: false, tools: [] };
  status: RunStatus = { working: false, startedAt: 0, tokens: 0 };
  /** The in-progress task of the model's list, kept across runs until the list changes. */
  private activity: string | undefined;
  traces: TraceEntry[] = [];
  totals: Totals = emptyTotals();
  private nextId = 1;
  private pending: HistoryItem[] = [];
  private liveChanged = false;
  private streamChars = 0;
  private runTokens = 0;
  /** True while the current assistant message has already shown a block (for the bullet). */
  private continuing = false;
  /** The run was stopped by a "no" at a permission prompt: its call says "Rejected", no "Interrupted" line. */
  private rejected = false;

  add(item: NewItem): void {
    this.pending.push({ ...item, id: this.nextId++ } as HistoryItem);
  }

  startRun(now = Date.now()): void {
    this.status = { working: true, startedAt: now, tokens: 0, ...(this.activity ? { activity: this.activity } : {}) };
    this.streamChars = 0;
    this.runTokens = 0;
    this.liveChanged = true;
  }

  apply(ev: AgentEvent): void {
    switch (ev.type) {
      case 'assistant_delta':
        this.live.text = ev.restart ? ev.text : this.live.text + ev.text;
        this.streamChars += ev.text.length;
        break;
      case 'thinking_delta':
        this.live.thinking = true;
        this.streamChars += ev.text.length;
        break;
      case 'assistant_message':
        this.commitText(true);
        this.live.thinking = false;
        this.continuing = false;
        break;
      case 'tool_request':
        this.commitText(true);
        this.live.thinking = false;
        this.live.tools = [
          ...this.live.tools,
          { toolUseId: ev.toolUseId, name: ev.name, input: ev.input, summary: ev.summary, startedAt: Date.now(), tail: [], waiting: false },
        ];
        break;
      case 'tool_progress':
        this.progress(ev.toolUseId, ev.message, ev.data);
        break;
      case 'tool_result':
        this.finishTool(ev);
        break;
      case 'stream_event':
        if (!this.status.retrying) return;
        this.status = { ...this.status, retrying: undefined };
        break;
      case 'usage':
        addToTotals(this.totals, ev);
        this.runTokens += ev.usage.output_tokens;
        this.streamChars = 0;
        break;
      case 'retry':
        // Said once per run in the transcript; each attempt after that shows in the status line.
        if (!this.status.retrying) this.add({ kind: 'info', tone: 'warning', text: retryLine(ev) });
        this.status = { ...this.status, retrying: retryStatus(ev) };
        break;
      case 'warning':
        this.add({ kind: 'info', tone: 'warning', text: ev.message });
        break;
      case 'compact':
        this.add({ kind: 'info', tone: 'info', text: compactNote(ev.trigger, ev.preTokens) });
        break;
      case 'task_notification':
        // A task the model stopped itself was shown by its TaskStop call.
        if (ev.notice.silent) return;
        this.add({
          kind: 'info',
          tone: ev.notice.status === 'failed' ? 'warning' : 'info',
          text: taskNote(ev.notice.taskId, ev.notice.status, ev.notice.summary),
        });
        break;
      case 'error':
        this.add({ kind: 'info', tone: 'error', text: ev.message });
        break;
      case 'done':
        this.finishRun(ev);
        break;
      default:
        return;
    }
    this.liveChanged = true;
  }

  /** Marks a running tool as waiting for the person (or not). */
  setWaiting(toolUseId: string, waiting: boolean): void {
    this.live.tools = this.live.tools.map((t) => (t.toolUseId === toolUseId ? { ...t, waiting } : t));
    this.liveChanged = true;
  }

  /** Moves finished blocks of streamed text into items. `all` commits the unfinished rest too. */
  commitText(all: boolean): void {
    const { done, rest } = all ? { done: this.live.text, rest: '' } : splitCompleted(this.live.text);
    if (!done.trim()) {
      if (all) this.live.text = '';
      return;
    }
    this.add({ kind: 'assistant', text: done.trim(), continues: this.continuing });
    this.continuing = true;
    this.live.text = rest;
    this.liveChanged = true;
  }

  /** Whether anything changed since the last snapshot. */
  get dirty(): boolean {
    return this.liveChanged || this.pending.length > 0;
  }

  /** Current state for rendering; finished blocks of text are committed first. */
  snapshot(): ViewSnapshot {
    this.commitText(false);
    if (this.pending.length) {
      this.items = this.items.concat(this.pending.splice(0, ITEMS_PER_FRAME));
    }
    this.liveChanged = false;
    const tokens = this.runTokens + Math.round(this.streamChars / 4);
    if (tokens !== this.status.tokens) this.status = { ...this.status, tokens };
    return { items: this.items, live: { ...this.live, continues: this.continuing }, status: this.status };
  }

  /** Forget every item (after /clear); the next items start a fresh <Static>. */
  clear(): void {
    this.activity = undefined;
    this.items = [];
    this.pending = [];
    this.live = { text: '', continues: false, thinking: false, tools: [] };
    this.liveChanged = true;
  }

  private progress(id: string, message?: string, data?: Record<string, unknown>): void {
    const text = message ?? pickText(data);
    if (!text) return;
    // Each progress message is the current state (Bash sends the tail of its output so far).
    const lines = text
      .replace(/\r\n?/g, '\n')
      .split('\n')
      .filter((l) => l.trim() !== '');
    this.live.tools = this.live.tools.map((t) => (t.toolUseId === id ? { ...t, tail: lines.slice(-TAIL_LINES) } : t));
  }

  private finishTool(ev: Extract<AgentEvent, { type: 'tool_result' }>): void {
    const live = this.live.tools.find((t) => t.toolUseId === ev.toolUseId);
    this.live.tools = this.live.tools.filter((t) => t.toolUseId !== ev.toolUseId);
    const tool: FinishedTool = {
      toolUseId: ev.toolUseId,
      name: ev.name,
      input: ev.input,
      summary: live?.summary ?? ev.name,
      result: { content: keepResult(ev.result.content), ...(ev.result.isError ? { isError: true } : {}) },
      ...(ev.display ? { display: ev.display } : {}),
      trace: ev.trace,
      durationMs: ev.durationMs,
    };
    this.add({ kind: 'tool', tool });
    if (ev.name === 'TodoWrite' && Array.isArray(ev.display?.todos)) {
      const doing = (ev.display.todos as Array<{ status?: string; activeForm?: string }>).find((t) => t.status === 'in_progress');
      this.activity = doing?.activeForm;
      this.status = { ...this.status, activity: this.activity };
    }
    this.traces.push({ toolUseId: ev.toolUseId, name: ev.name, summary: tool.summary, trace: ev.trace, isError: ev.result.isError === true });
    if (this.traces.length > MAX_TRACES) this.traces.splice(0, this.traces.length - MAX_TRACES);
  }

  private finishRun(ev: Extract<AgentEvent, { type: 'done' }>): void {
    this.commitText(true);
    this.live = { text: '', continues: false, thinking: false, tools: [] };
    this.continuing = false;
    if (ev.reason === 'aborted' && !this.rejected) this.add({ kind: 'interrupted' });
    else if (ev.reason === 'max_turns') this.add({ kind: 'info', tone: 'warning', text: `Stopped after the maximum number of turns (${ev.numTurns}).` });
    else if (ev.reason === 'hook_stopped' && ev.error) this.add({ kind: 'info', tone: 'warning', text: `Stopped by a hook: ${ev.error}` });
    this.status = { ...this.status, working: false, retrying: undefined };
    this.rejected = false;
  }

  /** The person said no at a permission prompt: the run stops without an "Interrupted" line. */
  markRejected(): void {
    this.rejected = true;
  }
}

function pickText(data?: Record<string, unknown>): string | undefined {
  if (!data) return undefined;
  for (const k of ['tail', 'output', 'stdout', 'text', 'chunk']) {
    const v = data[k];
    if (typeof v === 'string' && v) return v;
  }
  return undefined;
}

function keepResult(content: FinishedTool['result']['content']): FinishedTool['result']['content'] {
  if (typeof content === 'string') return content.length > KEEP_RESULT_CHARS ? `${content.slice(0, KEEP_RESULT_CHARS)}…` : content;
  return content.map((b) => {
    if (b.type === 'text') return { type: 'text' as const, text: b.text.length > KEEP_RESULT_CHARS ? `${b.text.slice(0, KEEP_RESULT_CHARS)}…` : b.text };
    return { type: 'text' as const, text: b.type === 'image' ? `[image ${b.source.media_type}]` : `[loaded ${b.tool_name}]` };
  });
}

export type { LiveTool };

/** The line the transcript shows when a background task has ended (its notice went to the model). */
export function taskNote(taskId: string, status: 'completed' | 'failed' | 'stopped', summary: string): string {
  const verb = status === 'completed' ? 'finished' : status;
  return `● Background task ${taskId} ${verb}: ${summary}`;
}

/** The line the transcript shows once the conversation was replaced by its summary. */
export function compactNote(trigger: 'manual' | 'auto', preTokens: number): string {
  const size = preTokens ? ` (it held ${preTokens.toLocaleString('en-US')} tokens)` : '';
  return `${trigger === 'auto' ? 'The context was nearly full: the' : 'The'} conversation was compacted into a summary${size}; the model goes on from the summary.`;
}
