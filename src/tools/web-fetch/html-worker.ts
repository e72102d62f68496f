/**
 * HTML → Markdown in a worker thread, so a hostile page cannot stall the process: turndown's HTML
 * parser is quadratic on some inputs (deep nesting, misnested formatting tags) and recursive. Here
 * a conversion has a time limit and a heap limit; past either the worker is terminated and the
 * caller falls back to plain text. The abort signal ends it at once. At most MAX_BUSY conversions
 * run at a time (each may use up to its heap limit); others wait their turn. Workers are kept (at
 * most MAX_IDLE) and unreferenced while idle, so they never hold the process open.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { setupTurndown } from './turndown-setup.js';

export const CONVERT_TIMEOUT_MS = 15_000;
const MAX_IDLE = 2;
const MAX_BUSY = 2;
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 };

// `__name` is the helper some TypeScript loaders wrap functions in (keepNames); a no-op here.
const WORKER_SOURCE = `
const __name = (target) => target;
const { parentPort, workerData } = require('node:worker_threads');
const setupTurndown = ${setupTurndown.toString()};
const td = setupTurndown(require(workerData.turndownPath));
parentPort.on('message', (job) => {
  try {
    parentPort.postMessage({ id: job.id, ok: true, markdown: td.turndown(job.html) });
  } catch (e) {
    parentPort.postMessage({ id: job.id, ok: false, message: String((e && e.message) || e) });
  }
});
`;

/** Why a conversion in the worker did not produce Markdown. */
export class ConvertError extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'failed' | 'aborted',
    message: string,
  ) {
    super(message);
    this.name = 'ConvertError';
  }
}

let turndownPath: string | undefined;
function resolveTurndown(): string {
  turndownPath ??= createRequire(import.meta.url).resolve('turndown');
  return turndownPath;
}

const idle: Worker[] = [];
let nextId = 1;

function takeWorker(): Worker {
  const w = idle.pop();
  if (w) {
    w.ref();
    return w;
  }
  const { Worker } = process.getBuiltinModule('node:worker_threads'); // loaded on the first page, not at start-up
  const fresh = new Worker(WORKER_SOURCE, { eval: true, workerData: { turndownPath: resolveTurndown() }, resourceLimits: RESOURCE_LIMITS });
  // An idle worker that dies must not take the process with it (an 'error' without a listener throws).
  fresh
    .on('error', () => undefined)
    .on('exit', () => {
      const at = idle.indexOf(fresh);
      if (at !== -1) idle.splice(at, 1);
    });
  return fresh;
}

let busy = 0;
const waiting: Array<() => void> = [];

/** Waits for one of the MAX_BUSY conversion slots; an abort while waiting rejects. */
function acquire(signal: AbortSignal): Promise<void> {
  if (busy < MAX_BUSY) {
    busy++;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const go = () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    const onAbort = () => {
      const at = waiting.indexOf(go);
      if (at !== -1) waiting.splice(at, 1);
      reject(new ConvertError('aborted', 'interrupted'));
    };
    waiting.push(go);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Hands the slot to the next waiting conversion, or frees it. */
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else busy--;
}

function giveBack(w: Worker): void {
  if (idle.length >= MAX_IDLE) {
    void w.terminate();
    return;
  }
  w.unref();
  idle.push(w);
}

/** Converts in a worker; rejects with ConvertError on timeout, heap exhaustion, a parser crash or abort. */
export async function convertInWorker(html: string, opts: { signal: AbortSignal; timeoutMs?: number }): Promise<string> {
  if (opts.signal.aborted) throw new ConvertError('aborted', 'interrupted');
  await acquire(opts.signal);
  try {
    return await runJob(html, opts);
  } finally {
    release();
  }
}

/** One conversion on one worker, with its time limit, abort and crash handling. */
function runJob(html: string, opts: { signal: AbortSignal; timeoutMs?: number }): Promise<string> {
  if (opts.signal.aborted) return Promise.reject(new ConvertError('aborted', 'interrupted'));
  const timeoutMs = opts.timeoutMs ?? CONVERT_TIMEOUT_MS;
  const worker = takeWorker();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const finish = (err: ConvertError | undefined, markdown?: string, keep = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (keep) giveBack(worker);
      else void worker.terminate();
      if (err) reject(err);
      else resolve(markdown ?? '');
    };
    const onMessage = (m: { id: number; ok: boolean; markdown?: string; message?: string }) => {
      if (m.id !== id) return;
      if (m.ok) finish(undefined, m.markdown, true);
      else finish(new ConvertError('failed', m.message ?? 'conversion failed'), undefined, !/call stack/i.test(m.message ?? ''));
    };
    const onError = (e: Error & { code?: string }) =>
      finish(
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ConvertError('memory', 'the page needed too much memory to convert')
          : new ConvertError('failed', e.message),
      );
    const onExit = (code: number) => finish(new ConvertError('failed', `the converter stopped (exit code ${code})`));
    const onAbort = () => finish(new ConvertError('aborted', 'interrupted'));
    const timer = setTimeout(() => finish(new ConvertError('timeout', `converting the page took longer than ${timeoutMs / 1000} s`)), timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    opts.signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ id, html });
  });
}

/** Stops the idle workers (tests and shutdown). */
export async function stopHtmlWorkers(): Promise<void> {
  const all = idle.splice(0);
  await Promise.all(all.map((w) => w.terminate()));
}
