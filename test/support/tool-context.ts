/**
 * A real ToolContext for tool tests: temporary project and home directories, a fresh read state, an
 * abort controller. `runTool` walks a call through the gates a tool owns (parse, validate, call,
 * context change) the way the runner does, without permissions or hooks.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ReadState } from '../../src/base/read-state.js';
import { drainCall, type SessionState, type Tool, type ToolContext, type ToolProgress } from '../../src/base/tool.js';
import type { DisplayData, ModelResult } from '../../src/base/events.js';

export interface ToolEnv {
  /** Root of everything this env created. */
  root: string;
  /** The project directory (cwd and projectRoot). */
  project: string;
  home: string;
  ctx: ToolContext;
  state: SessionState;
  abort: AbortController;
  /** Absolute path inside the project. */
  file(rel: string): string;
  /** A context for one more call: same session state, a fresh abort signal and tool-use id. */
  nextCall(overrides?: Partial<ToolContext>): ToolContext;
  cleanup(): void;
}

let callCounter = 0;

export function createToolEnv(overrides: Partial<ToolContext> = {}): ToolEnv {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-tool-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const state: SessionState = { cwd: project, readState: new ReadState() };
  const abort = new AbortController();
  const base = (): ToolContext => ({
    cwd: state.cwd,
    projectRoot: project,
    additionalDirs: [],
    homeDir: home,
    wicketHome: path.join(home, '.wicket'),
    sessionId: 'test-session',
    toolUseId: `toolu_test_${++callCounter}`,
    signal: abort.signal,
    permissionMode: 'default',
    readState: state.readState,
    env: {},
    settings: {},
  });
  const ctx = { ...base(), ...overrides };
  return {
    root,
    project,
    home,
    ctx,
    state,
    abort,
    file: (rel) => path.join(project, rel),
    nextCall: (o = {}) => ({ ...base(), ...overrides, ...o }),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export type RunResult<O> =
  | { ok: true; output: O; modelResult: ModelResult; display: DisplayData | undefined; progress: ToolProgress[] }
  | { ok: false; stage: 'parse' | 'validate' | 'call'; message: string };

/**
 * Parse → validate → call → contextChange, as the runner orders them. Refusals come back as
 * `{ ok: false, stage, message }`; the session state changes only after a successful call.
 */
export async function tryRunTool<I, O>(tool: Tool<I, O>, rawInput: unknown, ctx: ToolContext, state?: SessionState): Promise<RunResult<O>> {
  const parsed = tool.inputSchema.safeParse(rawInput);
  if (!parsed.success) return { ok: false, stage: 'parse', message: parsed.error.message };
  const input = parsed.data;
  const valid = (await tool.validateInput?.(input, ctx)) ?? { ok: true };
  if (!valid.ok) return { ok: false, stage: 'validate', message: valid.message };
  const progress: ToolProgress[] = [];
  let output: O;
  try {
    output = await drainCall(tool.call(input, ctx), (p) => progress.push(p));
  } catch (err) {
    return { ok: false, stage: 'call', message: err instanceof Error ? err.message : String(err) };
  }
  const change = tool.contextChange?.(output, input);
  if (change) change(state ?? { cwd: ctx.cwd, readState: ctx.readState });
  return { ok: true, output, modelResult: tool.toModelResult(output, input), display: tool.display?.(output, input), progress };
}

/** Like tryRunTool, but a refusal throws (with the stage and message), for calls expected to pass. */
export async function runTool<I, O>(tool: Tool<I, O>, rawInput: unknown, ctx: ToolContext, state?: SessionState) {
  const result = await tryRunTool(tool, rawInput, ctx, state);
  if (!result.ok) throw new Error(`${tool.name} refused at ${result.stage}: ${result.message}`);
  return result;
}

/** The text of a model result (text blocks joined), for assertions. */
export function resultText(result: ModelResult): string {
  if (typeof result.content === 'string') return result.content;
  return result.content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'image' ? `[image ${b.source.media_type}]` : `[tool_reference ${b.tool_name}]`))
    .join('\n');
}
