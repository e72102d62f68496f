/**
 * One scenario of the TUI benchmark (bundled and run by bench/tui.ts, in its own process): the real
 * App on a fake terminal, 2,000 streamed text deltas after `items` finished messages (and a short
 * warm-up answer, so both scenarios are measured with the same JIT state). Prints one JSON
 * line: bytes written and CPU time while streaming, renders, wall time.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { render } from 'ink';
import type { ClientEvent, FinalMessage, ModelClient } from '../src/api/model-client.js';
import { noHooks } from '../src/hooks/types.js';
import { emptyRules } from '../src/base/permission-types.js';
import { ReadState } from '../src/base/read-state.js';
import { App } from '../src/ui/App.js';
import { preloadMarkdown } from '../src/ui/markdown-text.js';
import { makeTheme } from '../src/ui/theme.js';
import type { NewItem } from '../src/ui/types.js';

const DELTAS = 2000;
const WARMUP_DELTAS = 400;
const items = Number(process.argv[2] ?? 0);

class Screen extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 40;
  bytes = 0;
  write(s: string): boolean {
    this.bytes += Buffer.byteLength(s);
    return true;
  }
}

class Keys extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
  read(): string | null {
    const d = this.data;
    this.data = null;
    return d;
  }
  type(s: string): void {
    this.data = s;
    this.emit('readable');
  }
}

function delta(i: number): string {
  if (i % 400 === 200) return '\n\n```ts\nconst x = 1;\n';
  if (i % 400 > 200 && i % 400 < 260 && i % 8 === 0) return `x${i}();\n`;
  if (i % 400 === 260) return '\n```\n\n';
  if (i % 40 === 39) return '.\n\n';
  return `word${i} `;
}

let streamStart = 0;
let cpuStart: NodeJS.CpuUsage = { user: 0, system: 0 };
let bytesStart = 0;
let rendersStart = 0;
let streamEnd = 0;

let calls = 0;
const client: ModelClient = {
  /** The first call warms up (JIT, caches); the second is measured. */
  async *stream(): AsyncGenerator<ClientEvent, FinalMessage, void> {
    const measured = ++calls === 2;
    if (measured) {
      streamStart = performance.now();
      cpuStart = process.cpuUsage();
      bytesStart = screen.bytes;
      rendersStart = renders;
    }
    let text = '';
    for (let i = 0; i < (measured ? DELTAS : WARMUP_DELTAS); i++) {
      const d = delta(i);
      text += d;
      yield { type: 'text', text: d };
      if (i % 2 === 1) await new Promise((r) => setTimeout(r, 1));
    }
    if (measured) streamEnd = performance.now();
    return {
      id: 'msg_bench',
      model: 'bench',
      content: [{ type: 'text', text }],
      stopReason: 'end_turn',
      usage: { input_tokens: 1, output_tokens: DELTAS, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      truncated: false,
    };
  },
};

const finished: NewItem[] = Array.from({ length: items }, (_, i) =>
  i % 2 === 0
    ? { kind: 'user', text: `question ${i}: what does module ${i} do?` }
    : { kind: 'assistant', text: `Module ${i} **parses** the \`input\` and:\n\n- checks it\n- returns it` },
);

const dir = mkdtempSync(path.join(tmpdir(), 'wicket-bench-tui-'));
const screen = new Screen();
let renders = 0;
await preloadMarkdown();
const base = {
  client,
  model: 'bench-model',
  smallModel: 'bench-small',
  tools: [],
  system: [{ type: 'text' as const, text: 'bench' }],
  state: { cwd: dir, readState: new ReadState() },
  projectRoot: dir,
  additionalDirs: [],
  homeDir: dir,
  wicketHome: path.join(dir, '.wicket'),
  sessionId: 'bench',
  permission: { mode: 'default' as const, rules: emptyRules() },
  hooks: noHooks,
  settings: {},
  env: {},
  seenUrls: new Set<string>(),
};
const loaded = {
  merged: {},
  sources: [],
  warnings: [],
  errors: [],
  rules: emptyRules(),
  additionalDirectories: [],
  env: {},
  hooks: [],
  disableBypassPermissions: false,
};
const keys = new Keys();
const instance = render(
  <App base={base} loaded={loaded} cwd={dir} configDir={dir} version="bench" commands={[]} allowBypass={false} initialItems={finished} theme={makeTheme({})} />,
  {
    stdout: screen as unknown as NodeJS.WriteStream,
    stdin: keys as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 30,
    onRender: () => void renders++,
  },
);
await quiet(300);
await ask('warm up');
while (calls < 1) await new Promise((r) => setTimeout(r, 20));
await quiet(300);
await ask('go');

async function ask(text: string): Promise<void> {
  keys.type(text);
  await new Promise((r) => setTimeout(r, 50));
  keys.type('\r');
}

/** Resolves once nothing has been written for `ms`. */
async function quiet(ms: number): Promise<number> {
  let last = -1;
  let since = performance.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    if (screen.bytes !== last) {
      last = screen.bytes;
      since = performance.now();
    } else if (performance.now() - since > ms) return since;
  }
}
// The run is over when the stream has ended and nothing more is written for 200 ms.
while (!streamEnd) await new Promise((r) => setTimeout(r, 20));
const quietSince = await quiet(200);

const cpu = process.cpuUsage(cpuStart);
const wallMs = quietSince - streamStart;
const result = {
  items,
  deltas: DELTAS,
  bytes: screen.bytes - bytesStart,
  cpuMs: (cpu.user + cpu.system) / 1000,
  renders: renders - rendersStart,
  wallMs,
};
instance.unmount();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
