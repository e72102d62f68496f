/**
 * The real Agent SDK (`@anthropic-ai/claude-agent-sdk`) driving the BUILT wicket (`npm run build`
 * first) as its CLI, through `pathToClaudeCodeExecutable`, against the fake Messages API, in a
 * temporary project with a temporary HOME.
 *
 *   const t = useApiAndProject();
 *   t.api.script(reply().text('hello'));
 *   const run = await sdkRun(t, 'Say hello.');
 *   expect(run.result?.result).toBe('hello');
 */
import { query, type Options, type Query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import type { ApiProject } from './api-project.js';
import { BIN_PATH, cliEnv } from './run-cli.js';

export interface SdkRunResult {
  /** Everything the SDK program saw, in order. */
  messages: SDKMessage[];
  /** What the iterator threw, if it did. */
  error?: Error;
  /** The CLI's stderr. */
  stderr: string;
  /** The last result message (loosely typed: success and error results have different fields). */
  result?: Record<string, any>;
  /** `type` or `type/subtype` of each message, for quick order checks. */
  kinds: string[];
}

/** SDK options for the test's project: the built wicket, the fake API, a clean environment. */
export function sdkOptions(t: ApiProject, extra: Partial<Options> = {}, stderr?: (s: string) => void): Options {
  const { env: extraEnv, ...rest } = extra;
  return {
    pathToClaudeCodeExecutable: BIN_PATH,
    cwd: t.project.dir,
    env: { ...cliEnv({ home: t.project.home, baseUrl: t.api.url }), ...extraEnv },
    ...(stderr ? { stderr } : {}),
    ...rest,
  };
}

/** Starts a query; `stderr` collects the CLI's stderr. */
export function sdkQuery(t: ApiProject, prompt: string | AsyncIterable<SDKUserMessage>, extra: Partial<Options> = {}): { q: Query; stderr: () => string } {
  let err = '';
  const q = query({ prompt, options: sdkOptions(t, extra, (s) => void (err += s)) });
  return { q, stderr: () => err };
}

/** Runs a query to its end and collects what the SDK program saw. */
export async function sdkRun(t: ApiProject, prompt: string | AsyncIterable<SDKUserMessage>, extra: Partial<Options> = {}): Promise<SdkRunResult> {
  const { q, stderr } = sdkQuery(t, prompt, extra);
  return collect(q, stderr);
}

/** Reads a started query to its end (`onMessage` sees each message as it comes). */
export async function collect(q: Query, stderr: () => string = () => '', onMessage?: (m: SDKMessage) => void | Promise<void>): Promise<SdkRunResult> {
  const messages: SDKMessage[] = [];
  let error: Error | undefined;
  try {
    for await (const m of q) {
      messages.push(m);
      await onMessage?.(m);
    }
  } catch (e) {
    error = e instanceof Error ? e : new Error(String(e));
  }
  const results = messages.filter((m) => m.type === 'result') as Array<Record<string, any>>;
  return {
    messages,
    ...(error ? { error } : {}),
    stderr: stderr(),
    ...(results.length ? { result: results.at(-1)! } : {}),
    kinds: messages.map((m) => ('subtype' in m && typeof m.subtype === 'string' ? `${m.type}/${m.subtype}` : m.type)),
  };
}

/** A user message for an async-iterable prompt. */
export function userMessage(text: string, uuid?: string): SDKUserMessage {
  return {
    type: 'user',
    message: { role: 'user', content: text },
    parent_tool_use_id: null,
    session_id: '',
    ...(uuid ? { uuid: uuid as SDKUserMessage['uuid'] } : {}),
  };
}

/** An async-iterable prompt the test feeds by hand; `end()` closes it. */
export class PromptFeed implements AsyncIterable<SDKUserMessage> {
  private readonly items: SDKUserMessage[] = [];
  private wake: (() => void) | undefined;
  private done = false;

  push(text: string, uuid?: string): void {
    this.items.push(userMessage(text, uuid));
    this.wake?.();
  }

  end(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      while (this.items.length) yield this.items.shift()!;
      if (this.done) return;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
    }
  }
}

/** The text of the system prompt a request sent. */
export function systemText(body: { system?: unknown }): string {
  const s = body.system;
  if (typeof s === 'string') return s;
  return Array.isArray(s) ? s.map((b: { text?: string }) => b.text ?? '').join('\n') : '';
}

/** Waits until `check` holds (polling), or fails after `ms`. */
export async function waitUntil(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Whether a process with this id still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
