/**
 * Settings `statusLine` (`{type: "command", command, padding?, refreshInterval?}`): a command whose
 * output is the app's status line, as in Claude Code. It gets the session as JSON on stdin, runs in
 * the project with COLUMNS and LINES set, and each line of its stdout is a row (ANSI colours kept).
 * A command that fails or takes longer than 5 s shows nothing.
 */
import { execaLib } from '../base/lib/execa-lib.js';

export interface StatusLineSetting {
  command: string;
  padding: number;
  /** Seconds between runs besides the events that trigger one; undefined: events only. */
  refreshSeconds?: number;
}

const TIMEOUT_MS = 5000;
const MAX_ROWS = 5;

/** The setting, when it names a command; anything else is ignored. */
export function statusLineSetting(settings: Record<string, unknown>): StatusLineSetting | undefined {
  const v = settings.statusLine as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object' || (v.type !== undefined && v.type !== 'command') || typeof v.command !== 'string' || !v.command.trim()) return undefined;
  const padding = typeof v.padding === 'number' && v.padding >= 0 ? Math.min(Math.floor(v.padding), 20) : 0;
  const refresh = typeof v.refreshInterval === 'number' && v.refreshInterval >= 1 ? v.refreshInterval : undefined;
  return { command: v.command, padding, ...(refresh ? { refreshSeconds: refresh } : {}) };
}

/** Runs the command once; its rows, or [] when it failed, timed out or was cancelled. */
export async function runStatusCommand(
  setting: StatusLineSetting,
  input: unknown,
  opts: { cwd: string; env: Record<string, string | undefined>; columns: number; rows: number; signal: AbortSignal },
): Promise<string[]> {
  try {
    const { execa } = await execaLib();
    const r = await execa(setting.command, {
      shell: true,
      cwd: opts.cwd,
      env: { ...opts.env, COLUMNS: String(opts.columns), LINES: String(opts.rows) },
      extendEnv: false,
      input: JSON.stringify(input),
      timeout: TIMEOUT_MS,
      cancelSignal: opts.signal,
      reject: false,
      stripFinalNewline: true,
      maxBuffer: 64 * 1024,
    });
    if (r.failed && r.exitCode !== 0) return [];
    return String(r.stdout ?? '')
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .slice(0, MAX_ROWS);
  } catch {
    return [];
  }
}
