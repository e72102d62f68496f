/** What the app shows: finished items (written once) and the live part (re-rendered, throttled). */
import type { DisplayData, GateTrace, ModelResult } from '../base/events.js';
import type { PermissionAnswer, PermissionRequest } from '../base/permission-types.js';

export interface ToolCallView {
  toolUseId: string;
  name: string;
  input: unknown;
  summary: string;
}

export interface FinishedTool extends ToolCallView {
  result: ModelResult;
  display?: DisplayData;
  trace: GateTrace;
  durationMs: number;
}

export type HistoryItem =
  | { id: number; kind: 'banner'; model: string; cwd: string; mode: string; version: string; notes: string[] }
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'assistant'; text: string /** A later block of the same message (no bullet). */; continues?: boolean }
  | { id: number; kind: 'tool'; tool: FinishedTool }
  | { id: number; kind: 'info'; text: string; tone: 'info' | 'warning' | 'error' }
  | { id: number; kind: 'interrupted' }
  /** A `!` command the person ran, and its output (or why it did not run). */
  | { id: number; kind: 'shell'; command: string; output: string; failed: boolean; refused?: boolean };

/** Items without their id, as producers make them. */
export type NewItem = HistoryItem extends infer T ? (T extends { id: number } ? Omit<T, 'id'> : never) : never;

export interface LiveTool extends ToolCallView {
  startedAt: number;
  /** Last lines of progress output (Bash), newest last. */
  tail: string[];
  waiting: boolean;
}

export interface LiveState {
  /** Assistant text still streaming (after the last finished block). */
  text: string;
  /** The streaming message already showed a finished block (no second bullet). */
  continues: boolean;
  thinking: boolean;
  tools: LiveTool[];
}

export interface RunStatus {
  working: boolean;
  startedAt: number;
  /** Output tokens so far in this run (estimated from text until usage arrives). */
  tokens: number;
  /** What the model says it is doing: the task in progress on its TodoWrite list. */
  activity?: string;
  /** A failed request waiting for its next attempt ("retrying (connection refused)… attempt 2/8"). */
  retrying?: string;
}

export interface PendingAsk {
  request: PermissionRequest;
  resolve: (answer: PermissionAnswer) => void;
}

export interface TraceEntry {
  toolUseId: string;
  name: string;
  summary: string;
  trace: GateTrace;
  isError: boolean;
}
