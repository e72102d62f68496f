/**
 * Helpers for the Ink component tests: a scripted model client (no HTTP), a tool that asks before it
 * runs, session options for the App, and small key/wait utilities for ink-testing-library.
 */
import { z } from 'zod';
import type { ClientEvent, FinalMessage, ModelClient, ModelRequest } from '../../src/api/model-client.js';
import type { AgentOptions } from '../../src/core/agent-options.js';
import type { ContentBlock } from '../../src/base/events.js';
import { noHooks } from '../../src/hooks/types.js';
import { emptyRules } from '../../src/base/permission-types.js';
import { ReadState } from '../../src/base/read-state.js';
import { defineTool, type Tool } from '../../src/base/tool.js';
import type { LoadedSettings } from '../../src/settings/load.js';

export type Turn = Array<{ text: string } | { tool: string; input: unknown; id?: string } | { waitMs: number } | { hang: true } | { stall: true }>;

/** A model client that plays turns in order; `requests` records what it was sent. */
export function scriptedClient(turns: Turn[]): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let n = 0;
  return {
    requests,
    async *stream(req: ModelRequest, signal: AbortSignal): AsyncGenerator<ClientEvent, FinalMessage, void> {
      requests.push(structuredClone(req));
      const turn = turns[n++] ?? [{ text: 'done' }];
      const content: ContentBlock[] = [];
      let ids = 0;
      for (const step of turn) {
        if (signal.aborted) throw new Error('aborted');
        if ('text' in step) {
          const last = content.at(-1);
          if (last?.type === 'text') last.text += step.text;
          else content.push({ type: 'text', text: step.text });
          yield { type: 'text', text: step.text };
        } else if ('tool' in step) {
          const block = { type: 'tool_use' as const, id: step.id ?? `toolu_${n}_${++ids}`, name: step.tool, input: step.input };
          content.push(block);
          yield { type: 'tool_use', toolUse: { id: block.id, name: block.name, input: block.input } } as ClientEvent;
        } else if ('stall' in step)
          await new Promise(() => {}); // ignores the abort, like a stuck socket
        else await sleep('hang' in step ? 1e9 : step.waitMs, signal);
      }
      return {
        id: `msg_${n}`,
        model: req.model,
        content,
        stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        truncated: false,
      };
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}

/** `Poke(what)`: asks in default mode, suggests `Poke(<what>)`, then answers "poked <what>". */
export const pokeTool: Tool<{ what: string }, string> = defineTool({
  name: 'Poke',
  description: () => 'Pokes something.',
  inputSchema: z.strictObject({ what: z.string() }),
  isReadOnly: () => false,
  isConcurrencySafe: () => true,
  async checkPermissions(input) {
    return { behavior: 'ask', reason: `poking ${input.what} needs a yes`, suggestions: [`Poke(${input.what})`] };
  },
  async *call(input) {
    return `poked ${input.what}`;
  },
  toModelResult: (out) => ({ content: out }),
  summary: (input) => `Poke ${input.what}`,
  display: (out) => ({ summary: out }),
});

export function baseOptions(client: ModelClient, dir: string, tools: Tool[] = [pokeTool]): Omit<AgentOptions, 'signal' | 'askUser'> {
  return {
    client,
    model: 'claude-test-1',
    smallModel: 'claude-test-small',
    tools,
    system: [{ type: 'text', text: 'test' }],
    state: { cwd: dir, readState: new ReadState() },
    projectRoot: dir,
    additionalDirs: [],
    homeDir: dir,
    wicketHome: `${dir}/.wicket`,
    sessionId: 'sess-test',
    permission: { mode: 'default', rules: emptyRules() },
    hooks: noHooks,
    settings: {},
    env: {},
    seenUrls: new Set<string>(),
  };
}

export function emptyLoaded(dir: string): LoadedSettings {
  return {
    merged: {},
    sources: [{ source: 'localSettings', path: `${dir}/.claude/settings.local.json`, loaded: false }],
    warnings: [],
    errors: [],
    rules: emptyRules(),
    additionalDirectories: [],
    env: {},
    hooks: [],
    disableBypassPermissions: false,
  };
}

export const keys = {
  enter: '\r',
  esc: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  left: '\x1b[D',
  right: '\x1b[C',
  backspace: '\x7f',
  shiftTab: '\x1b[Z',
  ctrlC: '\x03',
  ctrlD: '\x04',
  altEnter: '\x1b\r',
  pasteStart: '\x1b[200~',
  pasteEnd: '\x1b[201~',
};

export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` passes (or throws its last error after `timeoutMs`). */
export async function waitFor(check: () => void, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() - start > timeoutMs) throw err;
      await tick(15);
    }
  }
}
