/**
 * The only bridge between the core and the screen. Runs prompts through the core loop, folds its
 * events into an AgentView, and hands React a snapshot at most once per frame (so a burst of deltas
 * costs one render). Implements askUser with a queue: parallel asks are shown one at a time.
 * Esc (interrupt) aborts the run's AbortController: the loop answers every open call and the
 * conversation stays valid for the next prompt.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { grantAllowedTools } from '../../commands/custom-commands.js';
import type { AgentOptions } from '../../core/agent-options.js';
import { compactConversation } from '../../core/compact.js';
import { appendUser, unansweredToolUses } from '../../base/conversation.js';
import { errorMessage } from '../../base/errors.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../../base/events.js';
import type { PermissionAnswer } from '../../base/permission-types.js';
import type { TranscriptWriter } from '../../session/transcript.js';
import { runPrompt } from '../../core/run-prompt.js';
import { AgentView, type ViewSnapshot } from '../agent-state.js';
import { markdownReady, preloadMarkdown } from '../markdown-text.js';
import type { PendingAsk } from '../types.js';
import { usePermissionQueue } from './use-permission-queue.js';
import { shellJob } from './shell-job.js';
import { compactedMarks, markPrompt, rewindTo, type PromptMark } from '../../base/prompt-marks.js';
import { oneLine } from '../rewind.js';
import { restoreReport, undoText } from '../rewind-report.js';
import { rewinderFor } from '../rewind-preview.js';

/** A prompt waiting to run: what goes to the model, what the transcript shows, a command's allow rules, hook context. */
interface Queued {
  /** Text, or text and image blocks (images pasted into the prompt). */
  prompt: string | ContentBlock[];
  shown: string;
  allowedTools: readonly string[];
  context?: string;
  /** A `!` command: run through the Bash tool's gates, no model request. */
  shell?: string;
}

/** A run with no prompt: the model goes on with the notices of background tasks that ended. */
const WAKE: Queued = { prompt: '', shown: '', allowedTools: [] };

/** How long an interrupted run may take to wind down before it is left behind. */
const STUCK_MS = 2000;

/** Resolves `'stuck'` `ms` after the signal aborts (never when it does not). */
function afterAbort(signal: AbortSignal, ms: number): Promise<'stuck'> {
  return new Promise((resolve) => {
    const arm = () => setTimeout(() => resolve('stuck'), ms).unref();
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
  });
}

export interface UseAgentOptions {
  /** The session's options; the object is kept and read at the start of every run. */
  base: Omit<AgentOptions, 'signal' | 'askUser'>;
  transcript?: TranscriptWriter;
  /** Told every event of every run, as it comes (--debug's log). */
  onEvent?: (ev: AgentEvent) => void;
  initialMessages?: ApiMessage[];
  /** The rewind points of a resumed session. */
  initialMarks?: PromptMark[];
  /** Minimum time between two renders of streamed output (default 33 ms, about 30 frames a second). */
  frameMs?: number;
  /** Save "don't ask again" rules (default: .claude/settings.local.json of the project). */
  persistRule?: (rule: string) => Promise<void>;
  /** Called with the view before the first render (the app adds its banner). */
  init?: (view: AgentView) => void;
  /** Awaited before each run starts (MCP servers still starting or waiting for approval). */
  ready?: () => Promise<void>;
}

export interface AgentHandle extends ViewSnapshot {
  asks: PendingAsk[];
  queued: number;
  view: AgentView;
  messages: ApiMessage[];
  /** Runs a prompt now, or after the current run when one is going. */
  /** `allowedTools`: a custom command's allow rules, for the run this prompt starts; `context`: hook text that goes with the prompt. */
  submit(prompt: string | ContentBlock[], shown?: string, allowedTools?: readonly string[], context?: string): void;
  /** `!command`: runs it through the Bash tool's gates now, or after the current run; no model request. */
  shell(command: string): void;
  /** Whether a run is going, right now (the rendered status may lag a key press behind). */
  busy(): boolean;
  interrupt(): void;
  answer(ask: PendingAsk, answer: PermissionAnswer): void;
  info(text: string, tone?: 'info' | 'warning' | 'error'): void;
  /** A new conversation: forgets messages and items. */
  clear(): void;
  /** Replaces the conversation by a summary of it (/compact). */
  compact(instructions?: string): Promise<void>;
  /** The prompts of this session that can be rewound to, oldest first. */
  prompts(): PromptMark[];
  /**
   * Back to before prompt `i`: the code (tracked files restored), the conversation (cut back), or
   * both. Returns the prompt's text when the conversation went back (for the input); undefined
   * otherwise, or while a run goes.
   */
  rewind(i: number, what: { code: boolean; conversation: boolean; force?: boolean }): Promise<string | undefined>;
}

export function useAgent(opts: UseAgentOptions): AgentHandle {
  const frameMs = opts.frameMs ?? 33;
  const viewRef = useRef<AgentView | undefined>(undefined);
  if (!viewRef.current) {
    viewRef.current = new AgentView();
    opts.init?.(viewRef.current);
  }
  const view = viewRef.current;
  const messages = useRef<ApiMessage[]>(opts.initialMessages ?? []).current;
  const [snap, setSnap] = useState<ViewSnapshot>(() => view.snapshot());
  const [queued, setQueued] = useState(0);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const abortRef = useRef<AbortController | undefined>(undefined);
  const queue = useRef<Queued[]>([]);
  // Where each prompt of this session went into the conversation, for rewinding to before it.
  const prompts = useRef<PromptMark[]>(opts.initialMarks ? [...opts.initialMarks] : []).current;
  const optsRef = useRef(opts);
  optsRef.current = opts;

  const flushNow = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
    if (view.dirty) setSnap(view.snapshot());
    // Items left for the next frame (a burst is written a part per frame).
    if (view.dirty) timer.current = setTimeout(flushNow, frameMs);
  }, [view, frameMs]);
  const schedule = useCallback(() => {
    if (!timer.current) timer.current = setTimeout(flushNow, frameMs);
  }, [flushNow, frameMs]);

  const { asks, askUser } = usePermissionQueue(view, optsRef, schedule, flushNow);

  /** Folds one run's events into the view; stops touching anything once the run was left behind. */
  const consume = useCallback(
    async (working: ApiMessage[], { prompt, shown, context }: Queued, agent: AgentOptions, left: { behind: boolean }) => {
      const o = optsRef.current;
      let ended = false;
      try {
        const markdown = preloadMarkdown();
        for await (const ev of runPrompt(working, prompt, agent, { onUserMessage: (m) => o.transcript?.message(m), shown, ...(context ? { context } : {}) })) {
          if (left.behind) return;
          o.transcript?.onEvent(ev);
          o.onEvent?.(ev);
          // The prompt is not in `working` yet: this is where a rewind to before it cuts back to.
          if (ev.type === 'prompt_checkpoint') prompts.push(markPrompt(working, shown, ev.checkpoint));
          // Finished text is written once: make sure it is written as Markdown.
          if (!markdownReady()) await markdown.catch(() => undefined);
          view.apply(ev);
          if (ev.type === 'done') ended = true;
          if (ev.type === 'compact') compactedMarks(prompts); // what came before is a summary now: only its code can go back
          schedule();
        }
      } catch (err) {
        if (left.behind) return;
        view.apply({ type: 'error', message: errorMessage(err) });
      }
      if (!ended && !left.behind) view.apply({ type: 'done', reason: agent.signal.aborted ? 'aborted' : 'error', numTurns: 0, finalText: '' });
    },
    [view, schedule],
  );

  /** Runs a prompt; a `wake` run has none: the model goes on with the notices of background tasks that ended. */
  const run = useCallback(
    async (q: Queued, wake = false) => {
      const { shown, allowedTools } = q;
      const controller = new AbortController();
      abortRef.current = controller;
      if (!wake && q.shell === undefined) view.add({ kind: 'user', text: shown });
      view.startRun();
      flushNow();
      if (q.shell !== undefined) {
        await shellJob(optsRef.current.base, q.shell, controller.signal, { view, messages, transcript: optsRef.current.transcript });
        return next(controller);
      }
      await optsRef.current.ready?.();
      const agent: AgentOptions = { ...optsRef.current.base, askUser, signal: controller.signal };
      const revoke = grantAllowedTools(agent.permission.rules, allowedTools);
      // The run works on a copy that becomes the conversation when it ends. If an interrupted run
      // does not end in time (a stalled stream that ignores the abort), it is left behind and the
      // conversation keeps only its complete part, so Esc always gives the prompt back.
      const working = [...messages];
      const left = { behind: false };
      const outcome = await Promise.race([consume(working, q, agent, left).then(() => 'ended' as const), afterAbort(controller.signal, STUCK_MS)]);
      if (outcome === 'stuck') {
        left.behind = true;
        while (working.length > messages.length && unansweredToolUses(working).length) working.pop();
        appendUser(working, '[Request interrupted by the user]');
        view.apply({ type: 'done', reason: 'aborted', numTurns: 0, finalText: '' });
      }
      revoke();
      messages.splice(0, messages.length, ...working);
      next(controller);
    },
    [view, askUser, flushNow, consume, messages],
  );

  /** After a job: the next queued one, or a run for notices that came after the last request (not after an interrupt). */
  function next(controller: AbortController): void {
    abortRef.current = undefined;
    flushNow();
    const queued = queue.current.shift();
    setQueued(queue.current.length);
    if (queued) void runRef.current(queued);
    else if (!controller.signal.aborted && optsRef.current.base.taskNotices?.hasPending()) void runRef.current(WAKE, true);
  }
  const runRef = useRef(run);
  runRef.current = run;

  // A background task that ends while the app is idle wakes the model with its notice.
  useEffect(() => {
    const notices = optsRef.current.base.taskNotices;
    return notices?.subscribe(() => {
      if (!abortRef.current && notices.hasPending()) void runRef.current(WAKE, true);
    });
  }, []);

  const submit = useCallback(
    (prompt: string | ContentBlock[], shown?: string, allowedTools: readonly string[] = [], context?: string) => {
      const q: Queued = { prompt, shown: shown ?? (typeof prompt === 'string' ? prompt : ''), allowedTools, ...(context ? { context } : {}) };
      enqueue(q);
    },
    [run],
  );

  /** `!command`: through the Bash tool's gates now, or after the current run. */
  const shell = useCallback(
    (command: string) => {
      enqueue({ prompt: '', shown: `! ${command}`, allowedTools: [], shell: command });
    },
    [run],
  );

  function enqueue(q: Queued): void {
    if (abortRef.current) {
      queue.current.push(q);
      setQueued(queue.current.length);
      return;
    }
    void runRef.current(q);
  }

  const interrupt = useCallback(() => {
    queue.current = [];
    setQueued(0);
    abortRef.current?.abort();
  }, []);

  const info = useCallback(
    (text: string, tone: 'info' | 'warning' | 'error' = 'info') => {
      view.add({ kind: 'info', text, tone });
      flushNow();
    },
    [view, flushNow],
  );

  /** /compact: the conversation replaced by its summary, with the model working as in a run (Esc stops it). */
  const compact = useCallback(
    async (instructions?: string) => {
      const controller = new AbortController();
      abortRef.current = controller;
      view.startRun();
      flushNow();
      await optsRef.current.ready?.();
      const agent: AgentOptions = { ...optsRef.current.base, askUser, signal: controller.signal };
      const preTokens = agent.state.contextTokens ?? 0;
      const out = await compactConversation(messages, agent, { trigger: 'manual', instructions, preTokens, emit: (e) => view.apply(e) });
      if (out.ok) {
        agent.state.contextTokens = undefined;
        const ev: AgentEvent = { type: 'compact', trigger: 'manual', preTokens, summary: out.summary, messages: out.messages };
        optsRef.current.transcript?.onEvent(ev);
        optsRef.current.onEvent?.(ev);
        view.apply(ev);
      } else view.add({ kind: 'info', tone: 'warning', text: `The conversation was not compacted: ${out.reason}.` });
      view.apply({ type: 'done', reason: 'completed', numTurns: 0, finalText: '' });
      abortRef.current = undefined;
      flushNow();
    },
    [view, askUser, flushNow, messages],
  );

  /** Esc Esc or /rewind: back to before prompt `i` (of `prompts()`); returns its text for the input when the conversation went back. */
  const rewind = useCallback(
    async (i: number, what: { code: boolean; conversation: boolean; force?: boolean }): Promise<string | undefined> => {
      const mark = prompts[i];
      if (!mark) return undefined;
      if (abortRef.current) {
        view.add({ kind: 'info', tone: 'warning', text: 'Interrupt the current run (esc) before rewinding.' });
        flushNow();
        return undefined;
      }
      const base = optsRef.current.base;
      const rewinder = rewinderFor(base);
      let undo: PromptMark | undefined;
      if (what.code && rewinder && mark.checkpoint !== undefined) {
        const report = await rewinder.restore(mark.checkpoint, { readState: base.state.readState, force: what.force === true });
        for (const line of restoreReport(report, mark.text, base.state.cwd)) view.add({ kind: 'info', ...line });
        // The files as they were before the restore: a rewind point of their own, so the restore can be undone.
        if (report.undo !== undefined && report.restored.length + report.deleted.length) undo = { text: undoText(mark.text), checkpoint: report.undo };
      }
      if (undo && (!what.conversation || mark.at === undefined)) {
        optsRef.current.transcript?.checkpoint(undo.text, undo.checkpoint, true);
        prompts.push(undo);
      }
      if (!what.conversation || mark.at === undefined) {
        flushNow();
        return undefined;
      }
      rewindTo(messages, mark);
      prompts.splice(i);
      if (undo) prompts.push(undo);
      optsRef.current.transcript?.restart(messages, 'rewind', prompts);
      view.add({
        kind: 'info',
        tone: 'info',
        text: `Rewound the conversation to before "${oneLine(mark.text)}".${what.code ? '' : ' Files changed since then stay as they are.'}`,
      });
      flushNow();
      return mark.text;
    },
    [messages, view, flushNow],
  );

  const clear = useCallback(() => {
    prompts.length = 0;
    messages.length = 0;
    view.clear();
    flushNow();
  }, [messages, view, flushNow]);

  useEffect(() => {
    if (view.dirty) schedule();
    return () => {
      if (timer.current) clearTimeout(timer.current);
      abortRef.current?.abort();
    };
  }, []);

  /**
   * An answer to a permission prompt. "No" (Esc, or 3) stops the run, as Claude Code does: the call
   * is rejected, the others end, and what the person typed instead becomes the next prompt.
   */
  const answer = useCallback(
    (ask: PendingAsk, ans: PermissionAnswer) => {
      if (ans.behavior !== 'deny' || !ans.interrupt) return ask.resolve(ans);
      const { message, ...rest } = ans;
      view.markRejected();
      ask.resolve(rest);
      interrupt();
      if (message?.trim()) submit(message.trim());
    },
    [view, interrupt, submit],
  );

  const busy = useCallback(() => abortRef.current !== undefined, []);
  return {
    ...snap,
    asks,
    queued,
    view,
    messages,
    submit,
    shell,
    busy,
    interrupt,
    answer,
    info,
    clear,
    compact,
    rewind,
    prompts: () => [...prompts],
  };
}
