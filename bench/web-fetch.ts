/**
 * WebFetch: time added over a raw HTTP fetch of a 1 MB HTML page (fetch only; with HTML → Markdown;
 * with a small-model call to a local fake Messages API), and peak RSS of a process fetching a
 * 10 MB page through the tool beside one that only downloads it. Everything is on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ToolContext } from '../src/base/tool.js';
import { fmt, measureOnce, median } from './measure.js';

// Heavy modules are imported where used, so the measured child processes load only what they need.

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const SELF = fileURLToPath(import.meta.url);

function pageOf(bytes: number): Buffer {
  const unit =
    '<div class="entry"><h2>Section</h2><p>Lorem ipsum <a href="/x">dolor</a> sit amet, <em>consectetur</em> adipiscing elit.</p><ul><li>one</li><li>two</li></ul></div>\n';
  const body = unit.repeat(Math.ceil(bytes / unit.length));
  return Buffer.from(`<!doctype html><html><head><title>t</title><script>var x = 1;</script></head><body>${body}</body></html>`).subarray(0, bytes);
}

async function startWeb(): Promise<{ server: Server; url: (p: string) => string }> {
  const pages: Record<string, Buffer> = { '/1mb.html': pageOf(1024 * 1024), '/10mb.html': pageOf(10 * 1024 * 1024) };
  const server = createServer((req, res) => {
    const body = pages[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, url: (p) => `http://127.0.0.1:${port}${p}` };
}

async function stopWorkers(): Promise<void> {
  const { stopHtmlWorkers } = await import('../src/tools/web-fetch/html-worker.js');
  await stopHtmlWorkers();
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

async function runTool(url: string, ctx: Partial<ToolContext>): Promise<void> {
  const { createToolEnv, tryRunTool } = await import('../test/support/tool-context.js');
  const { PageCache } = await import('../src/tools/web-fetch/cache.js');
  const { createWebFetchTool } = await import('../src/tools/web-fetch/index.js');
  const env = createToolEnv();
  try {
    const tool = createWebFetchTool({ cache: new PageCache() }); // a fresh cache: every run fetches
    const r = await tryRunTool(tool, { url, prompt: 'What sections are there?' }, env.nextCall(ctx));
    if (!r.ok || (r.output as { kind: string }).kind !== 'page') throw new Error(`WebFetch failed: ${JSON.stringify(r).slice(0, 300)}`);
  } finally {
    env.cleanup();
  }
}

async function timings(): Promise<void> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const { reply, startFakeAnthropic } = await import('../test/support/fake-anthropic-server.js');
  const { fetchPage } = await import('../src/tools/web-fetch/fetch.js');
  const { USER_AGENT } = await import('../src/tools/web-fetch/index.js');
  const web = await startWeb();
  const api = await startFakeAnthropic({ whenExhausted: reply().text('There are many sections.') });
  const client = new Anthropic({ apiKey: 'bench', baseURL: api.url, maxRetries: 0 });
  const querySmallModel: ToolContext['querySmallModel'] = async (prompt, o) => {
    const stream = client.messages.stream({ model: 'small', max_tokens: 1024, messages: [{ role: 'user', content: prompt }] }, { signal: o.signal });
    const msg = await stream.finalMessage();
    return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  };
  const url = web.url('/1mb.html');
  const signal = new AbortController().signal;
  try {
    const raw = await time(async () => (await fetch(url)).arrayBuffer());
    const ours = await time(() => fetchPage(new URL(url), { signal, userAgent: USER_AGENT }));
    const converted = await time(() => runTool(url, {}));
    const answered = await time(() => runTool(url, { querySmallModel }));
    const plus = (ms: number) => `${ms.toFixed(1)} ms (+${(ms - raw).toFixed(1)} ms)`;
    console.log(`1 MB HTML, raw fetch:                      ${raw.toFixed(1)} ms`);
    console.log(`  WebFetch's fetch (caps, redirects):      ${plus(ours)}`);
    console.log(`  + HTML → Markdown (whole tool call):     ${plus(converted)}`);
    console.log(`  + small-model call (local fake API):     ${plus(answered)}`);
  } finally {
    await stopWorkers();
    await api.close();
    await new Promise<void>((resolve) => web.server.close(() => resolve()));
  }
}

async function memory(): Promise<void> {
  const web = await startWeb();
  try {
    const url = web.url('/10mb.html');
    const samples = async (mode: string) => {
      const xs = [];
      for (let i = 0; i < Math.max(3, Math.floor(RUNS / 3)); i++) xs.push(await measureOnce(process.execPath, ['--import', 'tsx', SELF, mode, url]));
      return { ms: median(xs.map((x) => x.ms)), rssMiB: median(xs.map((x) => x.rssMiB)) };
    };
    console.log(`10 MB HTML, process that only downloads:   ${fmt(await samples('--child-raw'))}`);
    console.log(`10 MB HTML, process running WebFetch:      ${fmt(await samples('--child-tool'))}  (target < 300 MiB)`);
  } finally {
    await new Promise<void>((resolve) => web.server.close(() => resolve()));
  }
}

const [mode, childUrl] = process.argv.slice(2);
if (mode === '--child-raw' && childUrl) {
  await (await fetch(childUrl)).arrayBuffer();
} else if (mode === '--child-tool' && childUrl) {
  await runTool(childUrl, {});
  await stopWorkers();
} else {
  await timings();
  await memory();
}
