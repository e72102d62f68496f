/**
 * The session, written as it happens: one JSON object per line under ~/.wicket/sessions/<project>/.
 * Messages (for --continue/--resume), the prompts' rewind points and each call's gate trace (who
 * stopped this, and why).
 */
import { mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isoTime } from '../base/clock.js';
import { unansweredToolUses } from '../base/conversation.js';
import type { AgentEvent, ApiMessage } from '../base/events.js';
import { randomUuid } from '../base/ids.js';
import { compactedMarks, markPrompt, type PromptMark } from '../base/prompt-marks.js';

export class TranscriptWriter {
  /** Opened for appending on the first line and kept: one open per line cost more than the write. */
  private fd: number | undefined;
  private failed = false;
  constructor(
    readonly file: string,
    private readonly sessionId: string,
    private readonly cwd: string,
  ) {}

  private write(entry: Record<string, unknown>): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(path.dirname(this.file), { recursive: true });
        this.fd = openSync(this.file, 'a');
      }
      const line = JSON.stringify({ ...entry, uuid: randomUuid(), sessionId: this.sessionId, timestamp: isoTime(), cwd: this.cwd });
      writeSync(this.fd, `${line}\n`);
    } catch {
      // a transcript that cannot be written must never stop the work
      this.failed = this.fd === undefined;
    }
  }

  message(message: ApiMessage): void {
    this.write({ type: message.role, message });
  }

  /** -n/--name: the session's name, as Claude Code keeps it (a `custom-title` line). */
  name(title: string): void {
    this.write({ type: 'custom-title', customTitle: title, sessionId: this.sessionId });
  }

  /** A rewind point: the prompt that goes in next, and its file checkpoint. */
  checkpoint(prompt: string, checkpoint: number | undefined, codeOnly = false): void {
    this.write({ type: 'prompt_checkpoint', prompt, ...(checkpoint === undefined ? {} : { checkpoint }), ...(codeOnly ? { code_only: true } : {}) });
  }

  /**
   * The conversation was replaced (a rewind, a fork): a resumed session starts from `messages`, with
   * the rewind points `marks` where they were (a prompt that joined a user message splits it).
   */
  restart(messages: readonly ApiMessage[], reason: string, marks: readonly PromptMark[] = []): void {
    this.write({ type: 'conversation_reset', reason });
    for (const m of marks) if (m.at === undefined && m.checkpoint !== undefined) this.checkpoint(m.text, m.checkpoint, true);
    const placed = marks.filter((m) => m.at !== undefined);
    messages.forEach((msg, i) => {
      for (const m of placed) if (m.at === i && m.blocks === undefined) this.checkpoint(m.text, m.checkpoint);
      const inside = placed.filter((m) => m.at === i + 1 && m.blocks !== undefined).sort((a, b) => a.blocks! - b.blocks!);
      if (!inside.length || msg.role !== 'user') return this.message(msg);
      const blocks = typeof msg.content === 'string' ? [{ type: 'text' as const, text: msg.content }] : msg.content;
      let from = 0;
      for (const m of inside) {
        if (m.blocks! > from) this.message({ role: 'user', content: blocks.slice(from, m.blocks) });
        from = Math.max(from, m.blocks!);
        this.checkpoint(m.text, m.checkpoint);
      }
      if (from < blocks.length) this.message({ role: 'user', content: blocks.slice(from) });
    });
    for (const m of placed) if (m.at === messages.length && m.blocks === undefined) this.checkpoint(m.text, m.checkpoint);
  }

  /** Records what matters from the event stream. */
  onEvent(ev: AgentEvent): void {
    if (ev.type === 'prompt_checkpoint') this.checkpoint(ev.prompt, ev.checkpoint);
    else if (ev.type === 'assistant_message') this.message({ role: 'assistant', content: ev.message.content });
    else if (ev.type === 'tool_results_message') this.message(ev.message);
    else if (ev.type === 'session_title') this.name(ev.title);
    // A background task's notice, as it went into the conversation (a resumed session merges it into its user message).
    else if (ev.type === 'task_notification' && ev.text) this.message({ role: 'user', content: [{ type: 'text', text: ev.text }] });
    else if (ev.type === 'tool_result')
      this.write({ type: 'gate_trace', tool_use_id: ev.toolUseId, tool_name: ev.name, trace: ev.trace, is_error: ev.result.isError ?? false });
    else if (ev.type === 'done')
      this.write({ type: 'end', reason: ev.reason, num_turns: ev.numTurns, ...(ev.deferredToolUse ? { deferred_tool_use: ev.deferredToolUse } : {}) });
    else if (ev.type === 'compact') {
      // A resumed session starts from here: the summary (and a prompt it held back) replace what came before.
      this.write({ type: 'compact_boundary', trigger: ev.trigger, pre_tokens: ev.preTokens });
      for (const m of ev.messages) this.message(m);
    }
  }
}

/** A saved session: its messages, and the prompts it can be rewound to (oldest first). */
export interface SavedSession {
  messages: ApiMessage[];
  marks: PromptMark[];
}

/** Messages of a saved session, cut so that the conversation is valid (no unanswered tool_use at the end). */
export function loadTranscript(file: string): ApiMessage[] {
  return loadSession(file).messages;
}

/**
 * A saved session with its rewind points, each placed where its prompt went into the messages. The
 * messages are cut so that the conversation is valid (no unanswered tool_use at the end) — unless
 * `keepDeferred` and the session ended on a call a hook deferred, which then stays open for the
 * resumed run to answer.
 */
export function loadSession(file: string, opts: { keepDeferred?: boolean } = {}): SavedSession {
  const messages: ApiMessage[] = [];
  let marks: PromptMark[] = [];
  let deferredId: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line);
      if (entry.type === 'end') deferredId = entry.deferred_tool_use?.id;
      else if (entry.type === 'user' || entry.type === 'assistant') deferredId = undefined;
      if (entry.type === 'conversation_reset') {
        messages.length = 0;
        marks = [];
      } else if (entry.type === 'compact_boundary') {
        messages.length = 0;
        compactedMarks(marks);
      } else if (entry.type === 'prompt_checkpoint' && typeof entry.prompt === 'string') {
        const checkpoint = typeof entry.checkpoint === 'number' ? entry.checkpoint : undefined;
        if (entry.code_only !== true) marks.push(markPrompt(messages, entry.prompt, checkpoint));
        else if (checkpoint !== undefined) marks.push({ text: entry.prompt, checkpoint });
      } else if ((entry.type === 'user' || entry.type === 'assistant') && entry.message) appendMessage(messages, entry.message);
    } catch {
      // a torn last line after a crash: skip it
    }
  }
  const open = unansweredToolUses(messages);
  const keepOpen = opts.keepDeferred && deferredId !== undefined && open.length === 1 && open[0] === deferredId;
  while (!keepOpen && messages.length && unansweredToolUses(messages).length) messages.pop();
  // A prompt whose messages were cut off with a torn end keeps only its checkpoint.
  marks = marks.flatMap((m) =>
    m.at === undefined || m.at <= messages.length ? [m] : m.checkpoint === undefined ? [] : [{ text: m.text, checkpoint: m.checkpoint }],
  );
  return { messages, marks };
}

/** Consecutive user lines are one message (a prompt that joined tool results is written apart). */
function appendMessage(messages: ApiMessage[], message: ApiMessage): void {
  const last = messages[messages.length - 1];
  if (last && last.role === message.role && message.role === 'user') {
    const prev = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    const next = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    last.content = [...prev, ...next];
  } else messages.push(message);
}

/** The most recently written session file in a project folder, if any. */
export function latestSession(dir: string): string | undefined {
  try {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    return files[0] ? path.join(dir, files[0].f) : undefined;
  } catch {
    return undefined;
  }
}
