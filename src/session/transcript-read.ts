/**
 * Reads a saved session, written by wicket or by Claude Code: the conversation is the chain of
 * records that ends at the newest one, followed back through `parentUuid` (a compaction's boundary
 * starts a chain anew; a rewind left the records after it on a branch no one follows). Of the chain,
 * `user` and `assistant` records are the messages; attachments, system lines and progress are
 * Claude Code's own and are not sent. wicket's `wicket-*` records give the rewind points. A file of
 * an older wicket (no `parentUuid`) is read as it was written (legacy-transcript.ts).
 */
import { readFileSync } from 'node:fs';
import { unansweredToolUses } from '../base/conversation.js';
import type { ApiMessage } from '../base/events.js';
import { compactedMarks, type PromptMark } from '../base/prompt-marks.js';
import { isMessage, readLegacySession } from './legacy-transcript.js';
import { withParallelResults } from './parallel-results.js';
import { type AssistantMessage, appendMessage, type ChainLine, WICKET_RECORD } from './transcript.js';
import { recordedInstructions, type RecordedInstructions } from './memory/recorded.js';

/** A saved session: its messages, and the prompts it can be rewound to (oldest first). */
export interface SavedSession {
  messages: ApiMessage[];
  marks: PromptMark[];
  /** The chain the session goes on from (empty for an older wicket's file, which is written anew). */
  chain: ChainLine[];
  /** The record the next one follows. */
  leaf: string | null;
  /** The folder the session last worked in, and when it last wrote a message. */
  cwd?: string;
  lastTimestamp?: string;
  legacy?: boolean;
  /** The start's instruction files as the session recorded them (none in an older session). */
  instructions?: RecordedInstructions;
  /**
   * The reply that stands in for one the model never gave: a session whose conversation ends on a
   * user record (a run stopped after tool results, or interrupted) goes on, as in Claude Code, after an
   * assistant message "No response requested." (resume.ts adds it to the messages, and to the file).
   */
  noResponse?: AssistantMessage;
}

/** Claude Code's stand-in reply before the next prompt of a session that ended on a user record. */
const NO_RESPONSE: AssistantMessage = {
  role: 'assistant',
  content: [{ type: 'text', text: 'No response requested.' }],
  model: '<synthetic>',
  stop_reason: 'stop_sequence',
};

type Entry = Record<string, unknown>;

const CHAIN_TYPES = new Set(['user', 'assistant', 'attachment', 'system', 'progress']);

/** The JSON objects of a transcript file; a torn line (a crash mid-write) is skipped. */
export function readEntries(file: string): Entry[] {
  const out: Entry[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line);
      if (entry && typeof entry === 'object' && !Array.isArray(entry)) out.push(entry);
    } catch {
      // a torn last line after a crash: skip it
    }
  }
  return out;
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
/** `at`: the conversation up to and including the record with this uuid (--resume-session-at). */
export function loadSession(file: string, opts: { keepDeferred?: boolean; at?: string } = {}): SavedSession {
  return sessionFromEntries(readEntries(file), opts.keepDeferred ?? false, opts.at);
}

export function sessionFromEntries(entries: readonly Entry[], keepDeferred = false, endAt?: string): SavedSession {
  const last = [...entries].reverse().find((e) => typeof e.cwd === 'string');
  const where = { ...(last ? { cwd: last.cwd as string, lastTimestamp: String(last.timestamp ?? '') } : {}) };
  if (isLegacy(entries)) {
    if (endAt !== undefined) throw new Error('an older wicket’s session has no message uuids to resume at');
    return { ...readLegacySession(entries, keepDeferred), chain: [], leaf: null, legacy: true, ...where };
  }
  const chain = chainOf(entries, endAt);
  const { messages, lines, at } = messagesOf(chain);
  const marks = marksOf(entries, at);
  const open = unansweredToolUses(messages);
  const deferred = deferredCall(entries);
  const keepOpen = keepDeferred && deferred !== undefined && open.length === 1 && open[0] === deferred;
  while (!keepOpen && messages.length && unansweredToolUses(messages).length) messages.pop();
  const kept = lines.filter((l) => l.index < messages.length);
  // The next record follows the newest of the chain (Claude Code's attachments after a reply too), unless the end was cut.
  const cut = kept.length < lines.length;
  const leaf = cut ? (kept[kept.length - 1]?.uuid ?? null) : ((chain[chain.length - 1]?.uuid as string | undefined) ?? null);
  const end = chain[chain.length - 1];
  const endsOnUser = end?.type === 'user' && end.isCompactSummary !== true && messages.at(-1)?.role === 'user';
  const noResponse = !cut && endsOnUser ? NO_RESPONSE : undefined;
  return {
    ...(noResponse ? { noResponse } : {}),
    messages,
    marks: marks.flatMap((m) =>
      m.at === undefined || m.at <= messages.length ? [m] : m.checkpoint === undefined ? [] : [{ text: m.text, checkpoint: m.checkpoint }],
    ),
    chain: kept.map((l) => ({ uuid: l.uuid, message: l.message })),
    leaf,
    ...where,
    ...instructionsSinceCompaction(entries),
  };
}

/** The start's instruction files recorded since the last compaction (before it, the summary's own head stands). */
function instructionsSinceCompaction(entries: readonly Entry[]): { instructions?: RecordedInstructions } {
  const boundary = entries.findLastIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary');
  const recorded = recordedInstructions(entries.slice(boundary + 1));
  return recorded ? { instructions: recorded } : {};
}

/** An older wicket's file: messages without a `parentUuid`. */
function isLegacy(entries: readonly Entry[]): boolean {
  return entries.some((e) => (e.type === 'user' || e.type === 'assistant') && !('parentUuid' in e));
}

/**
 * The records of the conversation, oldest first: from the newest record of the main chain (or the
 * record `at`) back to its root, with the results of parallel calls that Claude Code wrote beside it
 * (parallel-results.ts).
 */
export function chainOf(entries: readonly Entry[], at?: string): Entry[] {
  const byUuid = new Map<string, Entry>();
  let leaf: Entry | undefined;
  let resetTo: string | null | undefined;
  for (const e of entries) {
    // wicket's rewind: the conversation ends at `leafUuid` until a record follows it.
    if (e.type === WICKET_RECORD.reset && 'leafUuid' in e) {
      leaf = undefined;
      resetTo = typeof e.leafUuid === 'string' ? e.leafUuid : null;
    }
    if (!CHAIN_TYPES.has(String(e.type)) || typeof e.uuid !== 'string') continue;
    if ((e.type === 'user' || e.type === 'assistant') && !isMessage(e.message)) continue;
    byUuid.set(e.uuid, e);
    if (e.isSidechain !== true && e.type !== 'progress' && !(e.type === 'system' && e.subtype === 'file_snapshot')) {
      leaf = e;
      resetTo = undefined;
    }
  }
  if (resetTo !== undefined) leaf = resetTo === null ? undefined : byUuid.get(resetTo);
  if (at !== undefined) {
    leaf = byUuid.get(at);
    if (!leaf) throw new Error(`it holds no message ${at}`);
  }
  const out: Entry[] = [];
  const seen = new Set<string>();
  for (let e = leaf; e && !seen.has(e.uuid as string); e = typeof e.parentUuid === 'string' ? byUuid.get(e.parentUuid) : undefined) {
    seen.add(e.uuid as string);
    out.push(e);
  }
  return withParallelResults(withPreservedSegment(out.reverse(), byUuid), entries);
}

/**
 * Claude Code's compaction may keep the newest messages as they were: its boundary's
 * `compactMetadata.preservedSegment` names them (from `headUuid` back up to `tailUuid`, in the chain
 * before the boundary) and the summary record they follow (`anchorUuid`).
 */
function withPreservedSegment(chain: Entry[], byUuid: Map<string, Entry>): Entry[] {
  const at = chain.findLastIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary');
  const segment = (chain[at]?.compactMetadata as { preservedSegment?: Record<string, unknown> } | undefined)?.preservedSegment;
  if (!segment || typeof segment.headUuid !== 'string' || typeof segment.tailUuid !== 'string') return chain;
  const anchor = chain.findIndex((e) => e.uuid === segment.anchorUuid);
  if (anchor < at) return chain;
  const kept: Entry[] = [];
  const seen = new Set<string>();
  for (let e = byUuid.get(segment.tailUuid); e && !seen.has(e.uuid as string); e = byUuid.get(e.parentUuid as string)) {
    seen.add(e.uuid as string);
    kept.unshift(e);
    if (e.uuid === segment.headUuid) return [...chain.slice(0, anchor + 1), ...kept, ...chain.slice(anchor + 1)];
  }
  return chain;
}

interface Line extends ChainLine {
  /** The message this record went into. */
  index: number;
}

/** The messages a chain makes, the records that made them, and where the conversation stood after each record. */
function messagesOf(chain: readonly Entry[]): { messages: ApiMessage[]; lines: Line[]; at: Map<string, { at: number; blocks?: number }> } {
  const messages: ApiMessage[] = [];
  const lines: Line[] = [];
  const at = new Map<string, { at: number; blocks?: number }>();
  for (const e of chain) {
    const m = sentMessage(e);
    if (m) {
      const prev = messages[messages.length - 1];
      // Claude Code may write one assistant reply as several records (sharing its id): one message.
      if (m.role === 'assistant' && prev?.role === 'assistant') {
        prev.content = [...blocksOf(prev), ...blocksOf(m)];
        const line = lines[lines.length - 1]!;
        lines[lines.length - 1] = { ...line, uuid: e.uuid as string, message: { role: 'assistant', content: prev.content } };
      } else {
        if (m.role === 'user' && prev?.role === 'user') newlineAtSeam(prev, m);
        appendMessage(messages, m);
        lines.push({ uuid: e.uuid as string, message: m, index: messages.length - 1 });
      }
    }
    const tail = messages[messages.length - 1];
    at.set(e.uuid as string, tail?.role === 'user' ? { at: messages.length, blocks: blocksOf(tail).length } : { at: messages.length });
  }
  return { messages, lines, at };
}

/** The message a record sends to the model, if any: not Claude Code's API error stand-ins. */
function sentMessage(e: Entry): ApiMessage | undefined {
  if (e.type !== 'user' && e.type !== 'assistant') return undefined;
  if (e.isApiErrorMessage === true || !isMessage(e.message)) return undefined;
  const m = e.message as ApiMessage;
  if (m.role !== e.type) return undefined;
  // Claude Code's stand-ins for API errors are not sent; its other `<synthetic>` replies are.
  if (m.role === 'assistant' && (e.message as { model?: unknown }).model === '<synthetic>' && isApiError(m)) return undefined;
  return { role: m.role, content: structuredClone(m.content) };
}

/**
 * Two user records that make one message: where a text meets a text, Claude Code ends the first with
 * a line break (a local command's lines, then the next prompt), and so is it sent here.
 */
function newlineAtSeam(prev: ApiMessage, next: ApiMessage): void {
  const blocks = blocksOf(prev);
  const last = blocks[blocks.length - 1];
  if (last?.type !== 'text' || last.text.endsWith('\n') || blocksOf(next)[0]?.type !== 'text') return;
  prev.content = [...blocks.slice(0, -1), { ...last, text: `${last.text}\n` }];
}

function isApiError(m: ApiMessage): boolean {
  const text = typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return /^API Error\b/.test(text.trim());
}

function blocksOf(m: ApiMessage): Exclude<ApiMessage['content'], string> {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}

/** The rewind points, in the order written, placed in the conversation (a point whose place is gone keeps its checkpoint). */
function marksOf(entries: readonly Entry[], at: Map<string, { at: number; blocks?: number }>): PromptMark[] {
  let raw: Array<PromptMark & { leaf?: string | null }> = [];
  for (const e of entries) {
    if (e.type === WICKET_RECORD.reset) raw = [];
    else if (e.type === 'system' && e.subtype === 'compact_boundary') compactedMarks(raw);
    else if (e.type === WICKET_RECORD.checkpoint && typeof e.prompt === 'string') {
      const checkpoint = typeof e.checkpoint === 'number' ? { checkpoint: e.checkpoint } : {};
      if (e.codeOnly === true) {
        if (checkpoint.checkpoint !== undefined) raw.push({ text: e.prompt, ...checkpoint });
      } else raw.push({ text: e.prompt, ...checkpoint, leaf: typeof e.leafUuid === 'string' ? e.leafUuid : null });
    }
  }
  return raw.flatMap(({ leaf, ...m }) => {
    if (leaf === undefined) return [m];
    const place = leaf === null ? { at: 0 } : at.get(leaf);
    if (place) return [{ ...m, ...place }];
    return m.checkpoint === undefined ? [] : [{ text: m.text, checkpoint: m.checkpoint }];
  });
}

/** The call a hook deferred, when the last run ended on one and no message came after. */
function deferredCall(entries: readonly Entry[]): string | undefined {
  let id: string | undefined;
  for (const e of entries) {
    if (e.type === WICKET_RECORD.end) id = (e.deferredToolUse as { id?: string } | undefined)?.id;
    else if (e.type === 'user' || e.type === 'assistant') id = undefined;
  }
  return id;
}
