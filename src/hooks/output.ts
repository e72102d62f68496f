/**
 * What one finished hook said (reference/claude-code.md §4.5–§4.6): exit 0 → stdout is JSON when it
 * starts with `{`, plain text otherwise; exit 2 → a blocking message (stderr); any other code → a
 * non-blocking error for the person, though a valid JSON object on stdout still counts. Timeouts,
 * failures to start and garbage output become notices and decide nothing.
 */
import type { HookRunResult } from './run-command.js';

/** Text a hook hands to the model is capped at this many characters. */
export const HOOK_OUTPUT_CAP = 10_000;

export interface HookJson {
  continue?: boolean;
  stopReason?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  decision?: string;
  reason?: string;
  hookSpecificOutput?: Record<string, unknown>;
}

export interface HookVerdict {
  /** Names the hook in notices and traces: `PreToolUse hook "check.sh" [projectSettings]`. */
  label: string;
  /** Exit code 2: the blocking message (stderr, else the JSON reason). */
  blocking?: string;
  json?: HookJson;
  /** Exit 0 with plain (non-JSON) stdout. */
  plainText?: string;
  /** For the person: non-blocking errors, timeouts, systemMessage. */
  notices: string[];
  /** Why it did not finish with exit 0 (`exited with status 1: <first stderr line>`, `timed out`, …). */
  failed?: string;
}

export function capText(text: string, cap = HOOK_OUTPUT_CAP): string {
  if (text.length <= cap) return text;
  return `${text.slice(0, cap)}\n… [hook output truncated: ${text.length - cap} more characters]`;
}

export function interpretRun(run: HookRunResult, label: string, timeoutSec: number): HookVerdict {
  const verdict: HookVerdict = { label, notices: [], ...(run.exitCode === 0 ? {} : { failed: failureOf(run) }) };
  if (run.aborted) return verdict;
  if (run.timedOut) {
    verdict.notices.push(`${label} timed out after ${timeoutSec} s and was stopped; its output is ignored`);
    return verdict;
  }
  if (run.spawnError !== undefined || run.exitCode === undefined) {
    verdict.notices.push(`${label} could not be run: ${run.spawnError ?? 'it was killed'}`);
    return verdict;
  }
  const trimmed = run.stdout.trim();
  if (trimmed.startsWith('{')) {
    const json = parseJson(trimmed);
    if (json) verdict.json = json;
    else verdict.notices.push(`${label} printed output that starts with "{" but is not a valid JSON object; ignored`);
  }
  if (run.exitCode === 0) {
    if (!verdict.json && trimmed && !trimmed.startsWith('{')) verdict.plainText = capText(trimmed);
  } else if (run.exitCode === 2) {
    verdict.blocking = capText(run.stderr.trim() || stringField(verdict.json?.reason) || `blocked by ${label}`);
  } else {
    const first = run.stderr.trim().split('\n')[0]?.trim();
    verdict.notices.push(`${label} failed with non-blocking status code ${run.exitCode}${first ? `: ${first}` : ' (no error output)'}`);
  }
  const message = stringField(verdict.json?.systemMessage);
  if (message) verdict.notices.push(`${label}: ${capText(message)}`);
  return verdict;
}

function failureOf(run: HookRunResult): string {
  if (run.aborted) return 'was stopped';
  if (run.timedOut) return 'timed out';
  if (run.spawnError !== undefined || run.exitCode === undefined) return `could not be run: ${run.spawnError ?? 'it was killed'}`;
  const first = run.stderr.trim().split('\n')[0]?.trim();
  return `exited with status ${run.exitCode}${first ? `: ${first}` : ''}`;
}

function parseJson(text: string): HookJson | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    return value as HookJson;
  } catch {
    return undefined;
  }
}

export function stringField(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** `hookSpecificOutput` as an object, when it is one. */
export function specific(json: HookJson | undefined): Record<string, unknown> {
  const hso = json?.hookSpecificOutput;
  return typeof hso === 'object' && hso !== null && !Array.isArray(hso) ? hso : {};
}
