/**
 * The custom status line (settings `statusLine`): run at start, when a message or tool result
 * arrives, when a run starts or ends, when the mode changes, and every `refreshInterval` seconds;
 * debounced 300 ms, and a run still going is cancelled by the next.
 */
import { useEffect, useRef, useState } from 'react';
import type { AgentOptions } from '../../core/agent-options.js';
import { contextWindowOf } from '../../base/models.js';
import { addUsage, emptyUsage } from '../../base/usage.js';
import type { Totals } from '../../core/run-prompt.js';
import { runStatusCommand, type StatusLineSetting } from '../status-command.js';

const DEBOUNCE_MS = 300;

export interface StatusCommandDeps {
  base: Omit<AgentOptions, 'signal' | 'askUser'>;
  version: string;
  totals: Totals;
  transcriptPath?: string;
  columns: number;
  rows: number;
  /** Changes to any of these run the command again. */
  triggers: unknown[];
}

export function useStatusCommand(setting: StatusLineSetting | undefined, d: StatusCommandDeps): string[] {
  const [lines, setLines] = useState<string[]>([]);
  const started = useRef(Date.now()).current;
  const now = useRef(d);
  now.current = d;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!setting?.refreshSeconds) return;
    const t = setInterval(() => setTick((n) => n + 1), setting.refreshSeconds * 1000);
    t.unref?.();
    return () => clearInterval(t);
  }, [setting]);
  useEffect(() => {
    if (!setting) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const c = now.current;
      void runStatusCommand(setting, statusInput(c, started), {
        cwd: c.base.state.cwd,
        env: c.base.env,
        columns: c.columns,
        rows: c.rows,
        signal: controller.signal,
      }).then((out) => {
        if (!controller.signal.aborted) setLines(out);
      });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [setting, tick, ...d.triggers]);
  return lines;
}

/** The session as Claude Code hands it to a status line command. */
export function statusInput(d: Pick<StatusCommandDeps, 'base' | 'version' | 'totals' | 'transcriptPath'>, startedAt: number): Record<string, unknown> {
  const { base, totals } = d;
  let u = emptyUsage();
  for (const m of totals.byModel.values()) u = addUsage(u, m.usage);
  const inContext = base.state.contextTokens ?? 0;
  const window = contextWindowOf(base.model);
  const used = Math.min(100, Math.round((inContext / window) * 100));
  return {
    hook_event_name: 'Status',
    session_id: base.sessionId,
    transcript_path: d.transcriptPath ?? '',
    cwd: base.state.cwd,
    version: d.version,
    model: { id: base.model, display_name: displayName(base.model) },
    workspace: { current_dir: base.state.cwd, project_dir: base.projectRoot, added_dirs: base.additionalDirs },
    output_style: { name: base.outputStyle ?? 'default' },
    cost: {
      total_cost_usd: totals.costUsd,
      total_duration_ms: Date.now() - startedAt,
      total_api_duration_ms: totals.apiMs,
      total_lines_added: 0,
      total_lines_removed: 0,
    },
    context_window: {
      total_input_tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
      total_output_tokens: u.output_tokens,
      context_window_size: window,
      used_percentage: used,
      remaining_percentage: 100 - used,
    },
    exceeds_200k_tokens: inContext > 200_000,
    thinking: { enabled: base.thinkingBudget !== undefined },
    ...(base.effort ? { effort: { level: base.effort } } : {}),
  };
}

/** `claude-sonnet-4-6` → `Sonnet 4.6`; other ids as they are. */
export function displayName(model: string): string {
  const m = /^claude-([a-z]+)-(\d+)(?:-(\d{1,2}))?(?:-\d{8})?$/.exec(model);
  if (!m) return model;
  return `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1)} ${m[2]}${m[3] ? `.${m[3]}` : ''}`;
}
