/**
 * Runs one `type: "http"` hook: the event's JSON POSTed to the hook's URL. A 2xx answer's body is
 * read as a command hook's stdout (JSON decisions included); any other status, a refused
 * connection or a timeout is a non-blocking error. Header values may name only the variables the
 * hook lists in `allowedEnvVars`, so a settings file cannot send other secrets anywhere. Never throws.
 */
import type { HttpHook } from '../base/hook-config.js';
import { limitedRun, type HookRunOptions, type HookRunResult } from './run-command.js';

const MAX_BODY_CHARS = 4 * 1024 * 1024;

export async function runHttpHook(hook: HttpHook, body: string, opts: HookRunOptions): Promise<HookRunResult> {
  const { signal, done } = limitedRun(opts);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(hook, opts.env) },
      body,
      signal,
      redirect: 'error',
    });
    const text = (await res.text()).slice(0, MAX_BODY_CHARS);
    if (res.ok) return done({ exitCode: 0, stdout: text, stderr: '' });
    return done({
      exitCode: 1,
      stdout: '',
      stderr: `POST ${hook.url} answered HTTP ${res.status}${text.trim() ? `: ${text.trim().split('\n')[0]!.slice(0, 200)}` : ''}`,
    });
  } catch (err) {
    if (signal.aborted) return done({ stdout: '', stderr: '' });
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return done({ stdout: '', stderr: '', spawnError: `POST ${hook.url} failed: ${cause?.code ?? cause?.message ?? (err as Error).message}` });
  }
}

/** The hook's headers, `$VAR` and `${VAR}` replaced for the allowed variables only (others become empty). */
export function headersOf(hook: HttpHook, env: Record<string, string>): Record<string, string> {
  const allowed = new Set(hook.allowedEnvVars ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(hook.headers ?? {})) {
    out[name] = value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string | undefined, b: string | undefined) => {
      const v = (a ?? b)!;
      return allowed.has(v) ? (env[v] ?? '') : '';
    });
  }
  return out;
}
