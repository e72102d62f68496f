/**
 * Gates 6 and 7 and the PostToolUse hooks: the tool's call (after the project's snapshot, for a call
 * that may change files), its output mapped to what the model reads, the language servers' new
 * errors, and what PostToolUse or PostToolUseFailure hooks add or replace.
 */
import { drainCall, type CallOutcome, type ContextChange, type Tool } from '../../base/tool.js';
import type { DisplayData, ModelResult } from '../../base/events.js';
import { monotonicMs } from '../../base/clock.js';
import { errorMessage, ToolError } from '../../base/errors.js';
import { afterCall, beforeChange, changedByCommand, changedFiles, withDiagnostics } from '../lsp-calls.js';
import { done, type Gated, refusal } from './gated.js';

/** The tool's own word; false when it cannot say (the parser of a command not ready, an error, an input not complete yet). */
export function readOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input) === true;
  } catch {
    return false;
  }
}

/** Gates 6 and 7, then PostToolUse: runs the call, maps its output, and lets the hooks see it. */
export async function finishExecution(g: Gated, input: unknown): Promise<CallOutcome> {
  const { tool, call, env, ctx, tracer, startedAt } = g;
  // A call that may change files, allowed to run: the project is snapshotted first, once per prompt (core/snapshots/).
  if (env.beforeChange && !readOnly(tool, input)) await env.beforeChange(tool.name, input).catch(() => undefined);
  const t0 = monotonicMs();
  const changing = changedFiles(tool, input, ctx);
  await beforeChange(ctx, changing);
  let output: unknown;
  try {
    output = await drainCall(tool.call(input, ctx), (p) => env.emit({ type: 'tool_progress', toolUseId: call.id, message: p.message, data: p.data }));
  } catch (err) {
    const interrupted = ctx.signal.aborted;
    const message = interrupted ? cancelMessage(ctx.signal) : errorMessage(err);
    tracer.mark('execute', interrupted ? 'aborted' : 'failed', message);
    const post = await env.hooks.postToolUseFailure(
      { toolName: tool.name, toolInput: input, toolUseId: call.id, error: message, isInterrupt: interrupted, durationMs: Math.round(monotonicMs() - t0) },
      ctx.signal.aborted ? new AbortController().signal : ctx.signal,
    );
    const text = interrupted ? message : err instanceof ToolError ? message : `${tool.name} failed: ${message}`;
    return done({ content: withContext(text, post.additionalContext), isError: true }, tracer, startedAt, {
      failed: !interrupted,
      ...(post.stop ? { stop: post.stop.reason } : {}),
    });
  }
  tracer.mark('execute', 'passed');
  const mode = tool.modeAfter?.(output, env.permission.mode, g.nextMode);
  if (mode) env.permission.mode = mode;
  const outcome = await mapOutput(g, input, output, t0, changing);
  afterCall(tool, input, ctx, env.emit);
  return outcome;
}

function cancelMessage(signal: AbortSignal): string {
  const reason = signal.reason;
  if (reason instanceof ToolError) return reason.message;
  return 'Interrupted by the user.';
}

async function mapOutput(g: Gated, input: unknown, output: unknown, t0: number, changed: readonly string[]): Promise<CallOutcome> {
  const { tool, call, env, ctx, tracer, startedAt } = g;
  let result: ModelResult;
  let display: DisplayData | undefined;
  let change: ContextChange | undefined;
  try {
    result = tool.toModelResult(output, input);
    display = tool.display?.(output, input);
    change = tool.contextChange?.(output, input);
  } catch (err) {
    tracer.mark('map', 'failed', errorMessage(err));
    return done(refusal('map', `${tool.name} produced a result that could not be mapped: ${errorMessage(err)}`), tracer, startedAt, { failed: true });
  }
  tracer.mark('map', 'passed');
  const byCommand = await changedByCommand(tool, input, ctx);
  ({ result, display } = await withDiagnostics(ctx, [...changed, ...byCommand], result, display));
  const post = await env.hooks.postToolUse(
    { toolName: tool.name, toolInput: input, toolUseId: call.id, toolResponse: hookView(tool, output, input), durationMs: Math.round(monotonicMs() - t0) },
    ctx.signal,
  );
  if (post.updatedOutput) tracer.mark('post_hooks', 'rewritten', `output replaced by ${post.updatedOutput.hookName}`);
  else if (post.additionalContext || post.stop) tracer.mark('post_hooks', 'passed', post.stop ? `stop: ${post.stop.reason}` : 'added context');
  const shown = post.updatedOutput?.content ?? result.content;
  const content = post.additionalContext ? appendText(shown, post.additionalContext) : shown;
  return done({ ...result, content }, tracer, startedAt, {
    ...(display ? { display } : {}),
    ...(change ? { contextChange: change } : {}),
    ...(post.stop ? { stop: post.stop.reason } : {}),
    ...(result.isError && tool.name === 'Bash' ? { failed: true } : {}),
  });
}

/** What hooks see of the output (`tool_response`): the tool's Claude Code shape, when it has one. */
function hookView(tool: Tool, output: unknown, input: unknown): unknown {
  try {
    return tool.toolResponse ? tool.toolResponse(output, input) : output;
  } catch {
    return output;
  }
}

function withContext(text: string, extra?: string): string {
  return extra ? `${text}\n\n${extra}` : text;
}

function appendText(content: ModelResult['content'], extra: string): ModelResult['content'] {
  if (typeof content === 'string') return withContext(content, extra);
  return [...content, { type: 'text', text: extra }];
}
