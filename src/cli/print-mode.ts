/**
 * Print mode: consumes core events and writes text, one JSON result, or a JSON event stream, with
 * Claude Code's field names. Returns the exit code; never exits by itself.
 */
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent, ApiMessage, ContentBlock } from '../base/events.js';
import type { PermissionAnswer, PermissionRequest } from '../base/permission-types.js';
import type { PluginSet } from '../plugins/types.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { DebugLog } from '../core/setup/debug-log.js';
import { runPrompt, type PromptWithContext } from '../core/run-prompt.js';
import { ResultSeries, STRUCTURED_NUDGE, track, type ResultObject } from '../sdk/result.js';
import { apiErrorMessage, initMessage, StreamLines, type McpServerStatus } from '../sdk/messages.js';
import { allowHint, PERSON_ONLY, PRINT_MODE, unaskedDenial } from '../permissions/denial-text.js';
import { duration } from '../api/limits.js';
import { denialNote } from './denial-note.js';
import type { CliOptions } from '../core/setup/options.js';

export interface PrintIO {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** Who answers in print mode, as the gate trace names it. */
export const PRINT_MODE_ANSWER = 'no one to ask in print mode';

/**
 * Print mode has no one to ask: the call is denied with the real reason (nobody said no), and what
 * would let it run: the suggested rule, or (when an allow rule cannot approve it) a person.
 */
export async function printModeAskUser(req: PermissionRequest): Promise<PermissionAnswer> {
  const what = req.ruleCanAllow === false ? PERSON_ONLY : allowHint(req.toolName, req.suggestions);
  const message = unaskedDenial(PRINT_MODE, what, req.reason);
  return { behavior: 'deny', message, answeredBy: PRINT_MODE_ANSWER, nobodyAsked: true };
}

export async function runPrintMode(
  opts: CliOptions,
  agent: AgentOptions,
  prompts: AsyncIterable<string | ContentBlock[] | PromptWithContext>,
  messages: ApiMessage[],
  io: PrintIO,
  abort: AbortController,
  session: { transcript?: TranscriptWriter; mcpServers?: McpServerStatus[]; plugins?: PluginSet; debug?: DebugLog } = {},
): Promise<number> {
  const { transcript } = session;
  // --verbose with json output: every message stream-json would write, as one array at the end (as Claude Code does).
  const verboseJson = opts.outputFormat === 'json' && opts.verbose;
  const collected: unknown[] = [];
  const emit = (obj: unknown) => (verboseJson ? collected.push(obj) : io.out(line(obj)));
  const stream = opts.outputFormat === 'stream-json' || verboseJson;
  const lines = new StreamLines(
    (l) => emit(l),
    () => agent,
    {
      // The stream-json flags act on stream-json only (flag-scope.ts warns of them elsewhere).
      includePartialMessages: opts.includePartialMessages && !verboseJson,
      includeGateTraces: gateTracesWanted(opts, agent) && !verboseJson,
    },
  );
  if (stream) emit(initMessage(agent, session.mcpServers ?? [], session.plugins));
  let code = 0;
  // The results are numbered and carry the session's running cost, as the SDK mode's do.
  const results = new ResultSeries();
  for await (const item of prompts) {
    const { prompt, context } = typeof item === 'object' && !Array.isArray(item) ? item : { prompt: item, context: undefined };
    const st = results.newRun();
    let last: Extract<AgentEvent, { type: 'done' }> | undefined;
    agent.state.structuredOutput = undefined;
    // With --json-schema, a model that ends without calling StructuredOutput is asked again (twice at most).
    for (let current = prompt, nudges = 0; ; current = STRUCTURED_NUDGE, nudges++) {
      const first = nudges === 0;
      for await (const ev of runPrompt(messages, current, agent, {
        onUserMessage: (m) => transcript?.message(m),
        checkpoint: first,
        ...(first && context ? { context } : {}),
      })) {
        transcript?.onEvent(ev);
        session.debug?.event(ev);
        if (track(ev, st, opts.maxBudgetUsd)) abort.abort(new Error('budget'));
        if (stream) lines.event(ev);
        else if (ev.type === 'warning') io.err(`${ev.message}\n`);
        // A retry is always shown: a silent API can make each one wait for the idle limit.
        else if (ev.type === 'retry') io.err(`wicket: ${ev.error}; retrying in ${duration(ev.delayMs)} (${ev.attempt}/${ev.maxRetries})\n`);
        if (ev.type === 'done') last = ev;
      }
      if (!opts.jsonSchema || last?.reason !== 'completed' || agent.state.structuredOutput !== undefined || nudges >= 2) break;
    }
    // json and stream-json end an API error as Claude Code does: the synthetic assistant message, and a result holding its text.
    const apiErrorAsResult = opts.outputFormat !== 'text';
    if (stream && last?.reason === 'error' && st.apiError) emit(apiErrorMessage(st.apiError, agent.sessionId));
    const queued = opts.inputFormat === 'stream-json' ? undefined : 0;
    const result: ResultObject = results.finish(last, st, agent, { wantStructured: opts.jsonSchema !== undefined, apiErrorAsResult, queued });
    code = exitCodeFor(result, last, abort);
    if (opts.outputFormat === 'text') {
      if (result.is_error) io.err(`${(result.errors?.length ? result.errors : ['error']).map((e) => `wicket: ${e}`).join('\n')}\n`);
      if (typeof result.result === 'string' && result.result) io.out(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
      const note = denialNote(st.denialEvents);
      if (note) io.err(note);
    } else if (opts.outputFormat === 'json' && !verboseJson) io.out(`${JSON.stringify(result)}\n`);
    else emit(result);
    if (abort.signal.aborted) break;
  }
  if (verboseJson) io.out(`${JSON.stringify(collected)}\n`);
  return code;
}

function exitCodeFor(result: ResultObject, done: Extract<AgentEvent, { type: 'done' }> | undefined, abort: AbortController): number {
  if (done?.reason === 'aborted' && abort.signal.reason === 'SIGINT') return 130;
  if (done?.reason === 'aborted' && abort.signal.reason === 'SIGTERM') return 143;
  return result.is_error ? 1 : 0;
}

/** Whether stream-json carries gate traces: --include-gate-traces, or settings includeGateTraces. */
export function gateTracesWanted(opts: CliOptions, agent: AgentOptions): boolean {
  return Boolean(opts.includeGateTraces) || agent.settings.includeGateTraces === true;
}

function line(obj: unknown): string {
  return `${JSON.stringify(obj)}\n`;
}
