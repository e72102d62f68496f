/** Fake tools whose timing the test controls, for runner and scheduler tests. */
import { z } from 'zod';
import type { ModelClient } from '../../../src/api/model-client.js';
import type { AgentOptions } from '../../../src/core/agent-options.js';
import { noHooks, type Hooks } from '../../../src/hooks/types.js';
import type { AgentEvent } from '../../../src/base/events.js';
import type { RunnerEnv } from '../../../src/core/tool-runner.js';
import { emptyRules, type PermissionAnswer, type PermissionRules } from '../../../src/base/permission-types.js';
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import { ReadState } from '../../../src/base/read-state.js';
import { defineTool, type Tool, type ToolPermissionVerdict } from '../../../src/base/tool.js';

export interface Gate {
  promise: Promise<void>;
  open: () => void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

export interface FakeToolOptions {
  name: string;
  safe?: boolean;
  /** Awaited inside call; keyed by input.id. */
  gates?: Map<string, Gate>;
  log?: string[];
  fail?: (id: string) => boolean;
  verdict?: ToolPermissionVerdict;
  validate?: (input: { id: string }) => string | undefined;
  onContext?: (id: string) => void;
}

export function fakeTool(o: FakeToolOptions): Tool<{ id: string }, { id: string }> {
  return defineTool({
    name: o.name,
    description: () => `fake ${o.name}`,
    inputSchema: z.strictObject({ id: z.string() }),
    isReadOnly: () => o.safe ?? false,
    isConcurrencySafe: () => o.safe ?? false,
    async validateInput(input) {
      const msg = o.validate?.(input);
      return msg ? { ok: false, message: msg } : { ok: true };
    },
    async checkPermissions() {
      return o.verdict ?? { behavior: 'allow' };
    },
    async *call(input, ctx) {
      o.log?.push(`start ${input.id}`);
      const g = o.gates?.get(input.id);
      if (g) {
        await Promise.race([g.promise, new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))]);
      }
      yield { type: 'progress', message: `working ${input.id}` };
      o.log?.push(`end ${input.id}`);
      if (o.fail?.(input.id)) throw new Error(`boom ${input.id}`);
      return { id: input.id };
    },
    toModelResult: (out) => ({ content: `did ${out.id}`, isError: o.fail?.(out.id) ? true : undefined }),
    summary: (input) => `${o.name} ${input.id}`,
    contextChange: (out) => () => o.onContext?.(out.id),
  });
}

export interface EnvOptions {
  tools: Tool[];
  mode?: PermissionMode;
  rules?: PermissionRules;
  hooks?: Hooks;
  answer?: (req: { toolName: string }) => PermissionAnswer;
}

export function fakeEnv(o: EnvOptions): { env: RunnerEnv; events: AgentEvent[]; asked: string[] } {
  const events: AgentEvent[] = [];
  const asked: string[] = [];
  const env: RunnerEnv = {
    tools: o.tools,
    state: { cwd: '/tmp', readState: new ReadState() },
    permission: { mode: o.mode ?? 'default', rules: o.rules ?? emptyRules() },
    hooks: o.hooks ?? noHooks,
    askUser: async (req) => {
      asked.push(req.toolName);
      return o.answer ? o.answer(req) : { behavior: 'deny' };
    },
    base: { projectRoot: '/tmp', additionalDirs: [], homeDir: '/tmp/home', wicketHome: '/tmp/home/.wicket', sessionId: 's', env: {}, settings: {} },
    emit: (e) => events.push(e),
  };
  return { env, events, asked };
}

/** Agent options for loop tests: one safe fake tool, default mode, no hooks, every ask denied. */
export function agentOptions(client: ModelClient, extra: Partial<AgentOptions> = {}): AgentOptions {
  return {
    client,
    model: 'm',
    smallModel: 's',
    tools: [fakeTool({ name: 'R', safe: true })],
    system: [{ type: 'text', text: 'sys' }],
    state: { cwd: '/tmp', readState: new ReadState() },
    projectRoot: '/tmp',
    additionalDirs: [],
    homeDir: '/tmp',
    wicketHome: '/tmp/.wicket',
    sessionId: 's',
    permission: { mode: 'default', rules: emptyRules() },
    hooks: noHooks,
    askUser: async () => ({ behavior: 'deny' }),
    settings: {},
    env: {},
    seenUrls: new Set(),
    signal: new AbortController().signal,
    ...extra,
  };
}
