/**
 * Several hooks answered one event; these functions merge their verdicts the way Claude Code does
 * (reference/claude-code.md §4.6): `continue: false` beats every decision; PreToolUse decisions
 * rank deny > defer > ask > allow; the first `updatedInput` (in settings order) is the rewrite; text meant
 * for the model is joined and capped.
 */
import type { PostToolUseOutcome, PreToolUseOutcome, ToolResultContentLike } from './types.js';
import { capText, specific, stringField, type HookVerdict } from './output.js';

type Decision = 'allow' | 'ask' | 'deny' | 'defer';
const RANK: Record<Decision, number> = { allow: 1, ask: 2, defer: 3, deny: 4 };

function stopOf(verdicts: HookVerdict[]): { reason: string; hookName: string } | undefined {
  const v = verdicts.find((x) => x.json?.continue === false);
  if (!v) return undefined;
  return { reason: stringField(v.json?.stopReason) ?? `${v.label} stopped the session (continue: false)`, hookName: v.label };
}

function joinContext(parts: Array<string | undefined>): string | undefined {
  const texts = parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return texts.length ? capText(texts.join('\n\n')) : undefined;
}

/** One hook's PreToolUse decision: exit 2, then hookSpecificOutput.permissionDecision, then the deprecated top-level decision. */
function preDecision(v: HookVerdict): { decision: Decision; reason?: string } | undefined {
  if (v.blocking !== undefined) return { decision: 'deny', reason: v.blocking };
  const hso = specific(v.json);
  const reason = stringField(hso.permissionDecisionReason) ?? stringField(v.json?.reason);
  const pd = hso.permissionDecision;
  if (pd === 'allow' || pd === 'deny' || pd === 'ask' || pd === 'defer') return { decision: pd, ...(reason ? { reason: capText(reason) } : {}) };
  const legacy = v.json?.decision === 'approve' ? 'allow' : v.json?.decision === 'block' ? 'deny' : undefined;
  if (legacy) return { decision: legacy, ...(reason ? { reason: capText(reason) } : {}) };
  return undefined;
}

export function combinePreToolUse(verdicts: HookVerdict[]): PreToolUseOutcome {
  const stop = stopOf(verdicts);
  if (stop) return { kind: 'stop', reason: stop.reason, hookName: stop.hookName };
  let best: { decision: Decision; reason?: string; label: string } | undefined;
  let rewrite: { input: unknown; label: string } | undefined;
  for (const v of verdicts) {
    const d = preDecision(v);
    if (d && (!best || RANK[d.decision] > RANK[best.decision])) best = { ...d, label: v.label };
    const updated = specific(v.json).updatedInput;
    if (!rewrite && v.blocking === undefined && typeof updated === 'object' && updated !== null && !Array.isArray(updated)) {
      rewrite = { input: updated, label: v.label };
    }
  }
  const out: PreToolUseOutcome = { kind: 'continue' };
  if (best) {
    out.decision = best.decision;
    if (best.reason) out.reason = best.reason;
    out.hookName = best.label;
  }
  if (rewrite && best?.decision !== 'deny') {
    out.updatedInput = rewrite.input;
    out.hookName = best ? `${best.label}${best.label === rewrite.label ? '' : `; input rewritten by ${rewrite.label}`}` : rewrite.label;
  }
  const context = joinContext(verdicts.map((v) => stringField(specific(v.json).additionalContext)));
  if (context) out.additionalContext = context;
  return out;
}

/** PostToolUse and PostToolUseFailure: exit-2 stderr, `decision: "block"` reasons and additionalContext all go to the model. */
export function combinePostToolUse(verdicts: HookVerdict[], event: string, toolName?: string): PostToolUseOutcome {
  const parts: Array<string | undefined> = [];
  for (const v of verdicts) {
    if (v.blocking !== undefined) parts.push(`${event} hook feedback: ${v.blocking}`);
    else if (v.json?.decision === 'block') parts.push(`${event} hook feedback: ${stringField(v.json.reason) ?? 'blocked, with no reason given'}`);
    parts.push(stringField(specific(v.json).additionalContext));
  }
  const out: PostToolUseOutcome = {};
  const context = joinContext(parts);
  if (context) out.additionalContext = context;
  const stop = stopOf(verdicts);
  if (stop) out.stop = { reason: stop.reason };
  const updated = updatedOutputOf(verdicts, toolName);
  if (updated) out.updatedOutput = updated;
  return out;
}

/**
 * The first hook (in settings order) that replaces the result: `updatedToolOutput`, or for an MCP
 * tool `updatedMCPToolOutput` too. A string is the new text; text and image blocks are kept as they
 * are; any other value is sent as its JSON.
 */
function updatedOutputOf(verdicts: HookVerdict[], toolName: string | undefined): PostToolUseOutcome['updatedOutput'] {
  for (const v of verdicts) {
    const hso = specific(v.json);
    const value = hso.updatedToolOutput ?? (toolName?.startsWith('mcp__') ? hso.updatedMCPToolOutput : undefined);
    if (value === undefined || value === null) continue;
    return { content: asContent(value), hookName: v.label };
  }
  return undefined;
}

function asContent(value: unknown): ToolResultContentLike {
  if (typeof value === 'string') return capText(value);
  const blocks = Array.isArray(value) ? value : isContentBlock(value) ? [value] : undefined;
  if (blocks?.every(isContentBlock)) return blocks as Exclude<ToolResultContentLike, string>;
  return capText(JSON.stringify(value));
}

function isContentBlock(b: unknown): boolean {
  if (typeof b !== 'object' || b === null) return false;
  const block = b as { type?: unknown; text?: unknown; source?: { type?: unknown; data?: unknown } };
  return (
    (block.type === 'text' && typeof block.text === 'string') ||
    (block.type === 'image' && block.source?.type === 'base64' && typeof block.source.data === 'string')
  );
}

export function combineUserPrompt(verdicts: HookVerdict[]): { block?: string; additionalContext?: string; stop?: string; sessionTitle?: string } {
  const out: { block?: string; additionalContext?: string; stop?: string; sessionTitle?: string } = {};
  const stop = stopOf(verdicts);
  if (stop) out.stop = stop.reason;
  for (const v of verdicts) {
    if (out.block) break;
    if (v.blocking !== undefined) out.block = v.blocking;
    else if (v.json?.decision === 'block') out.block = capText(stringField(v.json.reason) ?? `prompt blocked by ${v.label}`);
  }
  const context = joinContext(verdicts.flatMap((v) => [v.plainText, stringField(specific(v.json).additionalContext)]));
  if (context) out.additionalContext = context;
  const title = sessionTitleOf(verdicts);
  if (title) out.sessionTitle = title;
  return out;
}

/** The first hook's `hookSpecificOutput.sessionTitle` (SessionStart, UserPromptSubmit): the session's new name. */
function sessionTitleOf(verdicts: HookVerdict[]): string | undefined {
  return verdicts
    .map((v) => stringField(specific(v.json).sessionTitle)?.trim())
    .find(Boolean)
    ?.slice(0, 200);
}

/** Stop, SubagentStop and PreCompact: exit 2 or `decision: "block"` blocks; `continue: false` overrides a block. */
export function combineBlock(verdicts: HookVerdict[], event: string): { block?: string } {
  if (stopOf(verdicts)) return {};
  for (const v of verdicts) {
    if (v.blocking !== undefined) return { block: v.blocking };
    if (v.json?.decision === 'block') return { block: capText(stringField(v.json.reason) ?? `${event} hook asked to continue (no reason given)`) };
  }
  return {};
}

/** SessionStart: plain stdout and additionalContext become context for the model; the first hook's initialUserMessage is the first prompt. */
export function combineSessionContext(verdicts: HookVerdict[]): { additionalContext?: string; sessionTitle?: string; initialUserMessage?: string } {
  const context = joinContext(verdicts.flatMap((v) => [v.plainText, stringField(specific(v.json).additionalContext)]));
  const title = sessionTitleOf(verdicts);
  const first = verdicts.map((v) => stringField(specific(v.json).initialUserMessage)).find(Boolean);
  return {
    ...(context ? { additionalContext: context } : {}),
    ...(title ? { sessionTitle: title } : {}),
    ...(first ? { initialUserMessage: capText(first) } : {}),
  };
}

/** SessionStart and CwdChanged: the files to watch for FileChanged hooks (`hookSpecificOutput.watchPaths`). */
export function watchPathsOf(verdicts: HookVerdict[]): string[] {
  return verdicts.flatMap((v) => {
    const paths = specific(v.json).watchPaths;
    return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string' && p.trim() !== '') : [];
  });
}

/** Setup and SubagentStart: only JSON `additionalContext` (plain stdout is not context for these events). */
export function combineJsonContext(verdicts: HookVerdict[]): { additionalContext?: string } {
  const context = joinContext(verdicts.map((v) => stringField(specific(v.json).additionalContext)));
  return context ? { additionalContext: context } : {};
}

/** PostToolBatch: exit 2, `decision: "block"` or `continue: false` stop the loop; `additionalContext` joins the results. */
export function combineBatch(verdicts: HookVerdict[]): { stop?: string; additionalContext?: string } {
  const stop = stopOf(verdicts)?.reason ?? combineBlock(verdicts, 'PostToolBatch').block;
  const { additionalContext } = combineJsonContext(verdicts);
  return { ...(stop ? { stop } : {}), ...(additionalContext ? { additionalContext } : {}) };
}

export interface PermissionHookAnswer {
  behavior: 'allow' | 'deny';
  message?: string;
  updatedInput?: unknown;
  /** An allow's permission updates (as the Agent SDK's `updatedPermissions`), applied before the call runs. */
  updatedPermissions?: unknown[];
  /** A deny that also ends the turn. */
  interrupt?: boolean;
}

/** PermissionRequest: `hookSpecificOutput.decision.behavior`; a deny from any hook wins. */
export function combinePermissionRequest(verdicts: HookVerdict[]): PermissionHookAnswer | undefined {
  let answer: PermissionHookAnswer | undefined;
  for (const v of verdicts) {
    const d = specific(v.json).decision;
    if (typeof d !== 'object' || d === null) continue;
    const { behavior, message, updatedInput, updatedPermissions, interrupt } = d as Record<string, unknown>;
    if (behavior !== 'allow' && behavior !== 'deny') continue;
    if (answer?.behavior === 'deny') break;
    answer = { behavior };
    const text = stringField(message);
    if (text) answer.message = capText(text);
    if (behavior === 'allow' && typeof updatedInput === 'object' && updatedInput !== null) answer.updatedInput = updatedInput;
    if (behavior === 'allow' && Array.isArray(updatedPermissions) && updatedPermissions.length) answer.updatedPermissions = updatedPermissions;
    if (behavior === 'deny' && interrupt === true) answer.interrupt = true;
  }
  return answer;
}
