/**
 * The SDK mode's turns: each `user` line runs as one prompt through the loop, in order, bracketed
 * by `session_state_changed` running → idle (when the SDK asked for them), with `system/init`
 * after the UserPromptSubmit hooks and one `result` at the end. `interrupt` stops the turn that
 * runs, as Esc does in the app, and the next line starts a normal turn.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../base/events.js';
import { runPrompt, type Totals } from '../core/run-prompt.js';
import { randomUuid } from '../base/ids.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { DebugLog } from '../core/setup/debug-log.js';
import { apiErrorMessage, type StreamLines } from './messages.js';
import { ResultSeries, STRUCTURED_NUDGE, track, type ResultObject, type RunState } from './result.js';
import type { SdkUserLine, TurnQueue } from './input.js';
import type { SdkSession } from './session.js';

type Line = Record<string, unknown>;
type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

/** A typed slash command, expanded as print mode expands `-p "/name args"`. */
export type ExpandPrompt = (text: string, agent: AgentOptions) => Promise<{ prompt: string; context?: string } | { error: string }>;

export interface TurnRunnerDeps {
  session: SdkSession;
  /** The session's options; each turn runs on a copy with its own abort signal. */
  base: AgentOptions;
  messages: ApiMessage[];
  queue: TurnQueue;
  lines: StreamLines;
  write: (line: Line) => void;
  /** Aborted by SIGINT, SIGTERM or a reader gone: every turn stops, and no other starts. */
  processSignal: AbortSignal;
  /** `session_state_changed` lines (CLAUDE_CODE_SDK_READS_SESSION_STATE / CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS). */
  stateEvents: boolean;
  /** --replay-user-messages: each user line is echoed back with its uuid. */
  replayUserMessages: boolean;
  /** --json-schema: a model that ends without the structured output is asked again (twice at most). */
  wantStructured: boolean;
  maxBudgetUsd?: number;
  /** The system/init line of a turn. */
  initLine: (agent: AgentOptions) => Line;
  expand?: ExpandPrompt;
  transcript?: TranscriptWriter;
  debug?: DebugLog;
}

export class TurnRunner {
  private current: { abort: AbortController; agent: AgentOptions } | undefined;
  /** The file checkpoint each user message started (its uuid → checkpoint), for rewind_files. */
  readonly checkpoints = new Map<string, number>();
  /** The turns' results, numbered, with the session's running totals. */
  private readonly results = new ResultSeries();
  readonly startedAt = Date.now();

  constructor(private readonly deps: TurnRunnerDeps) {}

  /** Cost and time of every turn so far (get_usage). */
  get spent(): Totals {
    return this.results.spent;
  }

  /** The options of the turn that runs, else the session's. */
  get agent(): AgentOptions {
    return this.current?.agent ?? this.deps.base;
  }

  /** Applies a change to the session's options and to the turn that runs (set_model, set_max_thinking_tokens). */
  change(fn: (agent: AgentOptions) => void): void {
    fn(this.deps.base);
    if (this.current) fn(this.current.agent);
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  /** Stops the turn that runs and withdraws wicket's own requests to the SDK; `cancelQueued` drops the waiting turns too. */
  interrupt(cancelQueued: boolean): { still_queued: string[]; cancelled?: string[] } {
    const cancelled = cancelQueued ? this.deps.queue.drop() : undefined;
    this.current?.abort.abort(new Error('interrupted'));
    this.deps.session.channel.cancelAll('interrupted');
    return { still_queued: this.deps.queue.queued(), ...(cancelled ? { cancelled } : {}) };
  }

  /** Runs the turns until the input ends (or the process is stopped); the exit code follows the last result. */
  async run(first: SdkUserLine[] = []): Promise<number> {
    // A signal (or the reader gone) ends the session even while it waits for a line.
    const stop = () => this.deps.queue.close();
    if (this.deps.processSignal.aborted) stop();
    this.deps.processSignal.addEventListener('abort', stop, { once: true });
    let code = 0;
    for (const line of first) code = await this.turn(line);
    for await (const line of this.deps.queue) {
      if (this.deps.processSignal.aborted) break;
      code = await this.turn(line);
    }
    const reason: unknown = this.deps.processSignal.reason;
    if (reason === 'SIGINT') return 130;
    if (reason === 'SIGTERM') return 143;
    return code;
  }

  private async turn(line: SdkUserLine): Promise<number> {
    const { deps } = this;
    const abort = new AbortController();
    const stop = () => abort.abort(deps.processSignal.reason);
    if (deps.processSignal.aborted) stop();
    deps.processSignal.addEventListener('abort', stop, { once: true });
    const agent: AgentOptions = { ...deps.base, signal: abort.signal };
    this.current = { abort, agent };
    const base = () => ({ uuid: randomUuid(), session_id: agent.sessionId });
    if (deps.stateEvents) deps.write({ type: 'system', subtype: 'session_state_changed', state: 'running', sdk_host_only: true, ...base() });
    if (deps.replayUserMessages) deps.write(replay(line, agent.sessionId));
    try {
      const st = this.results.newRun();
      const done = await this.runLine(line, agent, st, abort);
      // An interrupt's answer goes out before the turn's result.
      if (abort.signal.aborted) await new Promise((resolve) => setImmediate(resolve));
      if (done?.reason === 'error' && st.apiError) deps.write(apiErrorMessage(st.apiError, agent.sessionId));
      const queued = deps.queue.queued().length;
      const result = this.results.finish(done, st, agent, { wantStructured: deps.wantStructured, apiErrorAsResult: true, queued, hookStopAsSuccess: true });
      deps.write(result);
      return exitCodeOf(result);
    } finally {
      deps.processSignal.removeEventListener('abort', stop);
      this.current = undefined;
      // The model may have moved to a fallback model for the rest of the session.
      deps.base.model = agent.model;
      if (deps.stateEvents) deps.write({ type: 'system', subtype: 'session_state_changed', state: 'idle', sdk_host_only: true, ...base() });
    }
  }

  /** The line's prompt through the loop (asked again for the structured output when it is missing). */
  private async runLine(line: SdkUserLine, agent: AgentOptions, st: RunState, abort: AbortController): Promise<DoneEvent | undefined> {
    const { deps } = this;
    let sentInit = false;
    const init = () => {
      if (sentInit) return;
      sentInit = true;
      deps.write(deps.initLine(agent));
    };
    const typed = await this.expanded(line, agent);
    if ('error' in typed) {
      init();
      st.errors.push(typed.error);
      return { type: 'done', reason: 'error', numTurns: 0, finalText: '', error: typed.error };
    }
    agent.state.structuredOutput = undefined;
    let last: DoneEvent | undefined;
    for (let current: string | ContentBlock[] = typed.prompt, nudges = 0; ; current = STRUCTURED_NUDGE, nudges++) {
      const first = nudges === 0;
      const run = runPrompt(deps.messages, current, agent, {
        // The prompt's record keeps the uuid the host gave its message.
        onUserMessage: (m) => deps.transcript?.message(m, first ? line.uuid : undefined),
        checkpoint: first,
        ...(first && typed.context ? { context: typed.context } : {}),
        ...(line.composed ? { verbatim: true } : {}),
      });
      for await (const ev of run) {
        // After the UserPromptSubmit hooks: the prompt is taken.
        if (ev.type === 'prompt_checkpoint' || ev.type === 'turn_start' || ev.type === 'done') init();
        if (ev.type === 'prompt_checkpoint' && ev.checkpoint !== undefined && first) this.checkpoints.set(line.uuid, ev.checkpoint);
        deps.debug?.event(ev);
        if (track(ev, st, deps.maxBudgetUsd)) abort.abort(new Error('budget'));
        deps.lines.event(ev);
        // The transcript's record of a message takes the uuid its line had: the host's uuid finds it (resumeSessionAt).
        deps.transcript?.onEvent(ev, deps.lines.uuidOf(ev));
        if (ev.type === 'done') last = ev;
      }
      if (!deps.wantStructured || last?.reason !== 'completed' || agent.state.structuredOutput !== undefined || nudges >= 2) break;
    }
    init();
    return last;
  }

  /**
   * The line's prompt: a typed `/command` expanded. The SDK sends a string prompt as one text block,
   * which counts as typed text, as in Claude Code; a line the host composed goes as written.
   */
  private async expanded(line: SdkUserLine, agent: AgentOptions): Promise<{ prompt: string | ContentBlock[]; context?: string } | { error: string }> {
    if (line.composed) return { prompt: line.content };
    const text = typeof line.content === 'string' ? line.content : soleText(line.content);
    if (text === undefined) return { prompt: line.content };
    if (!text.startsWith('/') || !this.deps.expand) return { prompt: text };
    return this.deps.expand(text, agent);
  }
}

/** The text of a prompt that is one plain text block (nothing else on it), else undefined. */
function soleText(blocks: ContentBlock[]): string | undefined {
  const [only] = blocks;
  if (blocks.length !== 1 || only?.type !== 'text') return undefined;
  return Object.keys(only).every((k) => k === 'type' || k === 'text') ? only.text : undefined;
}

function exitCodeOf(result: ResultObject): number {
  return result.is_error ? 1 : 0;
}

/** The user line echoed back (--replay-user-messages), with its uuid. */
function replay(line: SdkUserLine, sessionId: string): Line {
  return {
    type: 'user',
    message: { role: 'user', content: line.content },
    parent_tool_use_id: null,
    session_id: sessionId,
    uuid: line.uuid,
    timestamp: new Date().toISOString(),
    isReplay: true,
  };
}
