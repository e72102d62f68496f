/**
 * `apiKeyHelper`: a command whose stdout is the key, sent as both `x-api-key` and
 * `Authorization: Bearer` (as Claude Code does). It runs when the session starts, and again once
 * its key is older than CLAUDE_CODE_API_KEY_HELPER_TTL_MS (default 5 minutes) or the API refuses
 * it (401). Requests that need a key while it runs wait for that one run. A helper that fails,
 * prints nothing or outlasts its limit (WICKET_API_KEY_HELPER_TIMEOUT_MS, default 30 s) stops the
 * run with a sentence that says so; the key itself is never shown.
 */
import { FatalError } from '../base/errors.js';
import { runAuthCommand } from './auth-command.js';
import { duration } from './limits.js';

export const KEY_HELPER_TTL_ENV = 'CLAUDE_CODE_API_KEY_HELPER_TTL_MS';
export const KEY_HELPER_TIMEOUT_ENV = 'WICKET_API_KEY_HELPER_TIMEOUT_MS';
const DEFAULT_TTL_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;

export interface KeyHelperOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Where the setting came from, for messages ("user settings"…). */
  source?: string;
  now?: () => number;
}

export class ApiKeyHelper {
  readonly ttlMs: number;
  readonly timeoutMs: number;
  private run: Promise<string> | undefined;
  private fetchedAt = 0;
  private running = false;
  private readonly now: () => number;

  constructor(
    readonly command: string,
    private readonly opts: KeyHelperOptions,
  ) {
    this.ttlMs = positive(opts.env[KEY_HELPER_TTL_ENV]) ?? DEFAULT_TTL_MS;
    this.timeoutMs = positive(opts.env[KEY_HELPER_TIMEOUT_ENV]) ?? DEFAULT_TIMEOUT_MS;
    this.now = opts.now ?? Date.now;
  }

  /** Runs the helper now, so the key is ready (or its failure known) by the first request. */
  start(): void {
    this.fresh().catch(() => {}); // the first request reports a failure
  }

  /** The key: the last one while it is younger than the TTL, else a new run's. */
  key(): Promise<string> {
    return this.fresh();
  }

  /** The API refused the key: the next request runs the helper again. */
  invalidate(): void {
    this.run = undefined;
  }

  describe(): string {
    return `apiKeyHelper${this.opts.source ? ` (${this.opts.source})` : ''}, run again every ${duration(this.ttlMs)} and when the key is refused`;
  }

  private fresh(): Promise<string> {
    // A run under way serves every request that waits; a finished one, until its key is older than the TTL.
    if (this.run && (this.running || this.now() - this.fetchedAt < this.ttlMs)) return this.run;
    this.running = true;
    const run = runAuthCommand('apiKeyHelper', this.command, { cwd: this.opts.cwd, env: this.opts.env, timeoutMs: this.timeoutMs }).then((out) => {
      const key = out.split(/\r?\n/).at(-1)?.trim() ?? '';
      if (!key) throw new FatalError('auth', 'apiKeyHelper printed no key: it must print the key on stdout');
      return key;
    });
    run.then(
      () => {
        this.running = false;
        this.fetchedAt = this.now();
      },
      // A failed run is not kept: the next request tries again.
      () => {
        this.running = false;
        if (this.run === run) this.run = undefined;
      },
    );
    this.run = run;
    return run;
  }
}

function positive(v: string | undefined): number | undefined {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
