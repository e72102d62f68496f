/**
 * `--debug [filter]` and `--debug-file <path>` in print mode: one line per thing the session did
 * (requests, retries, each gate's verdict, tool results, hooks, background tasks, warnings), on
 * stderr or appended to a file. The filter names categories to show (`api,hooks`) or to leave out
 * (`!tools`).
 */
import { appendFileSync } from 'node:fs';
import type { AgentEvent } from '../../base/events.js';
import type { HookLifecycleEvent } from '../../hooks/types.js';

export type DebugCategory = 'api' | 'tools' | 'hooks' | 'tasks' | 'warn';

export interface DebugLog {
  event(ev: AgentEvent): void;
  hook(ev: HookLifecycleEvent): void;
}

/** Undefined when debugging is off. */
export function debugLog(opts: { debug?: string | true; debugFile?: string }, stderr: (s: string) => void): DebugLog | undefined {
  if (opts.debug === undefined && opts.debugFile === undefined) return undefined;
  const show = categoryFilter(typeof opts.debug === 'string' ? opts.debug : '');
  const write = (cat: DebugCategory, text: string) => {
    if (!show(cat)) return;
    const line = `${new Date().toISOString()} [DEBUG] [${cat}] ${text}\n`;
    if (!opts.debugFile) return stderr(line);
    try {
      appendFileSync(opts.debugFile, line);
    } catch {
      // a debug file that cannot be written must not stop the session
    }
  };
  return {
    event: (ev) => {
      const d = describe(ev);
      if (d) write(d[0], d[1]);
    },
    hook: (ev) => write('hooks', ev.subtype === 'hook_started' ? `${ev.hook_name} started` : hookLine(ev)),
  };
}

/** A finished hook: how it ended, then its stderr and stdout (the only place output of most events goes), on one line. */
function hookLine(ev: Extract<HookLifecycleEvent, { subtype: 'hook_response' }>): string {
  const exit = ev.exit_code !== undefined ? ` (exit ${ev.exit_code})` : '';
  const err = ev.stderr.trim() ? `: ${oneLine(ev.stderr)}` : '';
  const out = ev.stdout.trim() ? ` stdout: ${oneLine(ev.stdout)}` : '';
  return `${ev.hook_name} ${ev.outcome}${exit}${err}${out}`;
}

function oneLine(text: string, max = 2000): string {
  const line = text.trim().replace(/\r?\n/g, '\\n');
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** `a,b` shows only those; `!a,!b` shows all but those. */
export function categoryFilter(filter: string): (cat: DebugCategory) => boolean {
  const parts = filter
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const only = parts.filter((p) => !p.startsWith('!'));
  const not = parts.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return (cat) => (only.length === 0 || only.includes(cat)) && !not.includes(cat);
}

function describe(ev: AgentEvent): [DebugCategory, string] | undefined {
  switch (ev.type) {
    case 'turn_start':
      return ['api', `request ${ev.turn}`];
    case 'retry':
      return ['api', `retry ${ev.attempt}/${ev.maxRetries} in ${ev.delayMs} ms after ${ev.error}`];
    case 'usage':
      return [
        'api',
        `${ev.model} answered in ${ev.apiDurationMs} ms: ${ev.usage.input_tokens} in, ${ev.usage.output_tokens} out, ${ev.usage.cache_read_input_tokens} cached`,
      ];
    case 'tool_request':
      return ['tools', `${ev.toolUseId} ${ev.name}(${ev.summary})`];
    case 'gate':
      return ['tools', `${ev.toolUseId} ${ev.record.gate}: ${ev.record.verdict}${ev.record.detail ? ` (${ev.record.detail})` : ''} ${ev.record.durationMs} ms`];
    case 'tool_result':
      return ['tools', `${ev.toolUseId} ${ev.name} ${ev.result.isError ? 'failed' : 'done'} in ${ev.durationMs} ms`];
    case 'task_started':
      return ['tasks', `${ev.taskId} started: ${ev.description}`];
    case 'task_progress':
      return [
        'tasks',
        `${ev.progress.taskId} ran ${ev.progress.lastToolName ?? 'a tool'} (${ev.progress.usage.toolUses} tool uses, ${ev.progress.usage.totalTokens} tokens so far)`,
      ];
    case 'task_notification':
      return ['tasks', `${ev.notice.taskId} ${ev.notice.status}: ${ev.notice.summary}`];
    case 'warning':
      return ['warn', ev.message];
    case 'error':
      return ['warn', `error: ${ev.message}`];
    default:
      return undefined;
  }
}
