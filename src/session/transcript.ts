/**
 * The session, written as it happens, in Claude Code's transcript format (session/paths.ts has where):
 * one JSON object per line. Each message is a `user` or `assistant` record whose `parentUuid` names
 * the record before it, so the conversation is the chain that ends at the newest record; a rewind
 * points the next record back into the chain, a compaction starts a new chain at a `system`
 * `compact_boundary` record, `-n`/`/rename` write a `custom-title` record. Claude Code, the Agent SDK
 * and wicket all read the same file.
 *
 * wicket's own records (a prompt's rewind point and file checkpoint, each call's gate trace, how a
 * run ended, where the rewind points start over) are lines of types of its own, `wicket-*`, which
 * carry no `uuid` and are not part of any chain: Claude Code passes over record types it does not
 * know, and resumes and lists the session as if they were not there.
 */
import { mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isoTime } from '../base/clock.js';
import type { AgentEvent, ApiMessage } from '../base/events.js';
import { randomHex, randomUuid } from '../base/ids.js';
import type { PromptMark } from '../base/prompt-marks.js';
import type { Usage } from '../base/usage.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What every record of the session says about where it was written. */
export interface TranscriptMeta {
  sessionId: string;
  /** The working folder now (it can move during a session). */
  cwd: () => string;
  version: string;
  gitBranch?: string;
  /** The model, for assistant messages written again without their own (a fork's history). */
  model: string;
  /** `cli` for the app, `sdk-cli` for print mode, as Claude Code marks them (`claude -c` skips the latter). */
  entrypoint: 'cli' | 'sdk-cli';
}

/** An assistant message as the API returned it. */
export type AssistantMessage = ApiMessage & { id?: string; model?: string; stop_reason?: string | null; usage?: Usage };

/** The record types wicket writes for itself; Claude Code ignores them. */
export const WICKET_RECORD = {
  checkpoint: 'wicket-checkpoint',
  gateTrace: 'wicket-gate-trace',
  end: 'wicket-end',
  reset: 'wicket-reset',
  /** The start's instruction files as given (session/memory/recorded.ts). */
  instructions: 'wicket-instructions',
} as const;

const LAST_PROMPT_CHARS = 200;

export interface ChainLine {
  uuid: string;
  message: ApiMessage;
}

export class TranscriptWriter {
  /** Opened for appending on the first line and kept: one open per line cost more than the write. */
  private fd: number | undefined;
  private failed = false;
  /** The newest record of the conversation: the next one's parent. */
  private parent: string | null;
  /** The message records of the conversation, oldest first (to find where a rewind goes back to). */
  private chain: ChainLine[] = [];
  /** The prompt the run under way began with, for its `last-prompt` record. */
  private prompt: string | undefined;

  constructor(
    readonly file: string,
    private readonly meta: TranscriptMeta,
    /** The chain a resumed session goes on from: its records' uuids and messages. */
    resumed?: { leaf: string | null; chain: ChainLine[] },
  ) {
    this.parent = resumed?.leaf ?? null;
    if (resumed) this.chain = [...resumed.chain];
  }

  get sessionId(): string {
    return this.meta.sessionId;
  }

  private write(entry: Record<string, unknown>): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
        this.fd = openSync(this.file, 'a', 0o600);
      }
      writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    } catch {
      // a transcript that cannot be written must never stop the work
      this.failed = this.fd === undefined;
    }
  }

  /** A record of the conversation's chain: it follows the newest one and becomes the newest. */
  private chained(type: string, fields: Record<string, unknown>, message?: ApiMessage, given?: string): string {
    const uuid = given !== undefined && UUID.test(given) && !this.chain.some((c) => c.uuid === given) ? given : randomUuid();
    const m = this.meta;
    this.write({
      parentUuid: this.parent,
      isSidechain: false,
      userType: 'external',
      cwd: m.cwd(),
      sessionId: m.sessionId,
      version: m.version,
      ...(m.gitBranch ? { gitBranch: m.gitBranch } : {}),
      entrypoint: m.entrypoint,
      type,
      ...fields,
      uuid,
      timestamp: isoTime(),
    });
    this.parent = uuid;
    if (message) this.chain.push({ uuid, message });
    return uuid;
  }

  private own(type: string, fields: Record<string, unknown>): void {
    this.write({ type, ...fields, sessionId: this.meta.sessionId, timestamp: isoTime() });
  }

  /**
   * A message of the conversation (an assistant one keeps the API's id, model, stop reason and
   * usage). `uuid`: the record's uuid when the stream already named the message (the Agent SDK's
   * lines), so that the host's uuid finds it in the file; a fresh one when it is taken or no uuid.
   */
  message(message: AssistantMessage, uuid?: string): void {
    if (message.role === 'user') {
      this.chained('user', { message: { role: 'user', content: message.content } }, { role: 'user', content: message.content }, uuid);
      return;
    }
    const body = {
      id: message.id ?? `msg_${randomHex(12)}`,
      type: 'message',
      role: 'assistant',
      model: message.model ?? this.meta.model,
      content: message.content,
      stop_reason: message.stop_reason ?? null,
      stop_sequence: null,
      usage: message.usage ?? { input_tokens: 0, output_tokens: 0 },
    };
    this.chained('assistant', { message: body }, { role: 'assistant', content: message.content }, uuid);
  }

  /** -n/--name and /rename: the session's name, as Claude Code keeps it (a `custom-title` record). */
  name(title: string): void {
    this.write({ type: 'custom-title', customTitle: title, sessionId: this.meta.sessionId });
  }

  /**
   * The end of a prompt's run, as Claude Code marks it: a `last-prompt` record with the prompt on one
   * line (cut at 200 characters) and the record the conversation ends at. The Agent SDK's
   * `listSessions` shows it as the session's summary when the session has no name.
   */
  private lastPrompt(): void {
    const text = this.prompt?.replace(/\s+/g, ' ').trim();
    this.prompt = undefined;
    if (!text) return;
    const lastPrompt = text.length > LAST_PROMPT_CHARS ? `${text.slice(0, LAST_PROMPT_CHARS)}\u2026` : text;
    this.write({ type: 'last-prompt', lastPrompt, leafUuid: this.parent, sessionId: this.meta.sessionId });
  }

  /** A rewind point: the prompt that goes in next (after the newest record), and its file checkpoint. */
  checkpoint(prompt: string, checkpoint: number | undefined, codeOnly = false): void {
    this.own(WICKET_RECORD.checkpoint, {
      prompt,
      leafUuid: this.parent,
      ...(checkpoint === undefined ? {} : { checkpoint }),
      ...(codeOnly ? { codeOnly: true } : {}),
    });
  }

  /**
   * The conversation was replaced (a rewind, a fork): a resumed session starts from `messages`, with
   * the rewind points `marks` where they were. When `messages` begin the conversation written so far,
   * the next record points back to where they end (Claude Code's way of going back); otherwise they
   * are written again as a new chain.
   */
  restart(messages: readonly ApiMessage[], reason: string, marks: readonly PromptMark[] = []): void {
    const kept = keptLines(this.chain, messages);
    if (kept !== undefined) {
      this.chain = this.chain.slice(0, kept);
      this.parent = this.chain[kept - 1]?.uuid ?? null;
    } else {
      this.parent = null;
      this.chain = [];
    }
    // The conversation now ends here, whether or not a record follows.
    this.own(WICKET_RECORD.reset, { reason, leafUuid: this.parent });
    for (const m of marks) if (m.at === undefined && m.checkpoint !== undefined) this.checkpoint(m.text, m.checkpoint, true);
    const placed = marks.filter((m) => m.at !== undefined);
    if (kept !== undefined) for (const m of placed) this.ownMarkAt(m);
    else this.rewrite(messages, placed);
  }

  /** A rewind point placed in a conversation already written: after the record where its prompt went in. */
  private ownMarkAt(mark: PromptMark): void {
    const lines = linesUpTo(this.chain, mark.at!, mark.blocks);
    this.own(WICKET_RECORD.checkpoint, {
      prompt: mark.text,
      leafUuid: lines === 0 ? null : (this.chain[lines - 1]?.uuid ?? null),
      ...(mark.checkpoint === undefined ? {} : { checkpoint: mark.checkpoint }),
    });
  }

  private rewrite(messages: readonly ApiMessage[], placed: readonly PromptMark[]): void {
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

  /** A compaction: a new chain starts at a `compact_boundary` record, with the summary (and a prompt it held back). */
  private compacted(ev: Extract<AgentEvent, { type: 'compact' }>): void {
    const logicalParentUuid = this.parent;
    this.parent = null;
    this.chain = [];
    this.chained('system', {
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      isMeta: false,
      level: 'info',
      logicalParentUuid,
      compactMetadata: { trigger: ev.trigger, preTokens: ev.preTokens },
    });
    ev.messages.forEach((m, i) => {
      if (i > 0 || m.role !== 'user') return this.message(m);
      this.chained('user', { message: { role: 'user', content: m.content }, isCompactSummary: true, isVisibleInTranscriptOnly: true }, m);
    });
  }

  /** Records what matters from the event stream (`uuid`: the uuid the stream gave the message, if any). */
  onEvent(ev: AgentEvent, uuid?: string): void {
    if (ev.type === 'prompt_checkpoint') {
      this.prompt = ev.prompt;
      this.checkpoint(ev.prompt, ev.checkpoint);
      if (ev.instructions) this.own(WICKET_RECORD.instructions, ev.instructions);
    } else if (ev.type === 'assistant_message') this.message(ev.message, uuid);
    else if (ev.type === 'tool_results_message') this.message(ev.message, uuid);
    else if (ev.type === 'session_title') this.name(ev.title);
    // A background task's notice, as it went into the conversation (a resumed session merges it into its user message).
    else if (ev.type === 'task_notification' && ev.text) this.message({ role: 'user', content: [{ type: 'text', text: ev.text }] });
    else if (ev.type === 'tool_result')
      this.own(WICKET_RECORD.gateTrace, { toolUseId: ev.toolUseId, toolName: ev.name, trace: ev.trace, isError: ev.result.isError ?? false });
    else if (ev.type === 'done') {
      // As Claude Code marks a run its turn limit stopped: a resumed session then goes on without a stand-in reply.
      if (ev.reason === 'max_turns')
        this.chained('attachment', { attachment: { type: 'max_turns_reached', maxTurns: ev.numTurns, turnCount: ev.numTurns + 1, exitCommitted: false } });
      this.lastPrompt();
      this.own(WICKET_RECORD.end, { reason: ev.reason, numTurns: ev.numTurns, ...(ev.deferredToolUse ? { deferredToolUse: ev.deferredToolUse } : {}) });
    } else if (ev.type === 'compact') this.compacted(ev);
  }
}

/** Consecutive user records are one message (a prompt that joined tool results is written apart). */
export function appendMessage(messages: ApiMessage[], message: ApiMessage): void {
  const last = messages[messages.length - 1];
  if (last && last.role === message.role && message.role === 'user') {
    const prev = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
    const next = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    last.content = [...prev, ...next];
  } else messages.push({ role: message.role, content: message.content });
}

/** How many records of `chain` make exactly `messages`; undefined when they are not its beginning. */
function keptLines(chain: readonly ChainLine[], messages: readonly ApiMessage[]): number | undefined {
  if (!messages.length) return 0;
  const want = JSON.stringify(messages);
  const merged: ApiMessage[] = [];
  let best: number | undefined;
  for (let i = 0; i < chain.length; i++) {
    appendMessage(merged, structuredClone(chain[i]!.message));
    if (merged.length === messages.length && JSON.stringify(merged) === want) best = i + 1;
    if (merged.length > messages.length) break;
  }
  return best;
}

/** How many records of `chain` come before a prompt placed at message `at` (after `blocks` blocks of a user message). */
function linesUpTo(chain: readonly ChainLine[], at: number, blocks: number | undefined): number {
  const merged: ApiMessage[] = [];
  const wantBlocks = blocks ?? 0;
  for (let i = 0; i < chain.length; i++) {
    const count = merged.length;
    const last = merged[count - 1];
    const lastBlocks = last && last.role === 'user' ? (typeof last.content === 'string' ? 1 : last.content.length) : 0;
    if (blocks === undefined ? count === at : count === at && lastBlocks === wantBlocks) return i;
    appendMessage(merged, structuredClone(chain[i]!.message));
  }
  return chain.length;
}
