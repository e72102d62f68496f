/**
 * A tool watched by `tools check`: how many times its execution started, how many ran at once,
 * and, as asked, its execution replaced by a stop (nothing runs) or a short wait (the batching
 * check), or left as it is (the read-only check, in the scratch copy). The gates around it are the
 * real gate runner's, with a session set up in the scratch copy.
 */
import { ReadState } from '../../../base/read-state.js';
import type { PermissionMode } from '../../../base/permission-modes.js';
import type { PermissionRules } from '../../../base/permission-types.js';
import type { Tool } from '../../../base/tool.js';
import { noHooks } from '../../../hooks/types.js';
import type { RunnerEnv } from '../../tool-runner.js';
import type { Scratch } from './scratch.js';

export interface Probe {
  tool: Tool;
  /** Executions started. */
  calls: number;
  /** The most executions that ran at the same time. */
  maxAtOnce: number;
}

export type ProbeRun = 'stop' | 'wait' | 'real';

/** Thrown where the tool would have run. */
export const STOPPED = new Error('tools check: the call stops before it runs');

const WAIT_MS = 30;

export function probeTool(tool: Tool, run: ProbeRun, o: { skipValidation?: boolean } = {}): Probe {
  const probe: Probe = { tool: Object.create(tool) as Tool, calls: 0, maxAtOnce: 0 };
  let atOnce = 0;
  if (o.skipValidation) probe.tool.validateInput = async () => ({ ok: true });
  probe.tool.call = async function* (input, ctx) {
    probe.calls++;
    atOnce++;
    probe.maxAtOnce = Math.max(probe.maxAtOnce, atOnce);
    try {
      if (run === 'stop') throw STOPPED;
      if (run === 'wait') {
        await new Promise((r) => setTimeout(r, WAIT_MS));
        throw STOPPED;
      }
      return yield* tool.call(input, ctx);
    } finally {
      atOnce--;
    }
  };
  return probe;
}

/** No rules but these deny rules. */
export function rulesWith(deny: PermissionRules['deny'] = []): PermissionRules {
  return { allow: [], ask: [], deny };
}

/**
 * A session in the scratch copy for one probed tool: no hooks, no settings, and a call that would
 * ask a person refused (or, with `approve`, approved).
 */
export function probeRunner(
  scratch: Scratch,
  tool: Tool,
  o: { mode: PermissionMode; rules: PermissionRules; env: Record<string, string | undefined>; approve?: boolean },
): RunnerEnv {
  return {
    tools: [tool],
    state: { cwd: scratch.project, readState: new ReadState() },
    permission: { mode: o.mode, rules: o.rules },
    hooks: noHooks,
    askUser: async () =>
      o.approve ? { behavior: 'allow', answeredBy: 'tools check' } : { behavior: 'deny', answeredBy: 'tools check (nobody asked)', nobodyAsked: true },
    base: {
      projectRoot: scratch.project,
      additionalDirs: [],
      homeDir: scratch.home,
      wicketHome: `${scratch.home}/.wicket`,
      sessionId: 'tools-check',
      env: { ...o.env, HOME: scratch.home },
      settings: {},
      seenUrls: new Set<string>(),
    },
    emit: () => {},
  };
}
