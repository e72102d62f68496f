/**
 * `--permission-prompt-tool stdio`: a call that would ask a person is put to the SDK host as a
 * `can_use_tool` request, with the fields Claude Code sends (the tool, its input, the call's id, the
 * words a host shows — display name, title, subtitle —, the permission updates that would stop the
 * asking, the path it is held on, why it asks, the sub-agent). `allow` runs the call, with the host's `updatedInput` (checked again by the permission
 * gate) after its `updatedPermissions` are applied; `deny` refuses it with the host's message, and
 * with `interrupt: true` also ends the turn as an interrupt does. An error answer, or none at all,
 * is a refusal: no call runs that the host did not allow. The gate trace names the host.
 */
import path from 'node:path';
import { errorMessage } from '../base/errors.js';
import { isInWorkspace } from '../base/paths.js';
import type { PermissionMode } from '../base/permission-modes.js';
import type { AskUser, MatchedAskRule, PermissionAnswer, PermissionRequest } from '../base/permission-types.js';
import { parseRule } from '../base/rule-parse.js';
import { applyPermissionUpdates, type PermissionTarget } from '../core/permission-updates.js';
import type { ControlPayload } from './control-channel.js';
import { permissionWords } from './permission-words.js';

export interface CanUseToolDeps {
  /** Sends a `can_use_tool` request and resolves with the host's answer; aborting the signal withdraws it. */
  request: (body: ControlPayload, signal: AbortSignal) => Promise<ControlPayload>;
  /** The session's permission state, which `updatedPermissions` change. */
  target: () => PermissionTarget;
  /** Ends the current turn as the SDK's `interrupt` does (a denial with `interrupt: true`). */
  interrupt?: () => void;
  /** Told what could not be applied of an answer. */
  warn?: (message: string) => void;
}

/** How the trace and the denials name the one who answered. */
export const SDK_ANSWERER = 'the SDK host (canUseTool)';

const EDIT_TOOLS = new Set(['Edit', 'Write', 'NotebookEdit', 'MultiEdit']);

export function canUseToolAsker(deps: CanUseToolDeps): AskUser {
  return async (req, signal) => {
    let answer: ControlPayload;
    try {
      answer = await deps.request(requestBody(req, deps.target()), signal);
    } catch (err) {
      if (signal.aborted) return { behavior: 'deny', message: 'the run was interrupted before the SDK host answered', answeredBy: 'interrupted' };
      return { behavior: 'deny', message: `Tool permission request failed: Error: ${errorMessage(err)}`, answeredBy: SDK_ANSWERER };
    }
    return readAnswer(answer, req, deps);
  };
}

async function readAnswer(answer: ControlPayload, req: PermissionRequest, deps: CanUseToolDeps): Promise<PermissionAnswer> {
  if (answer.behavior === 'allow') {
    const updated = answer.updatedInput;
    if (updated !== undefined && (typeof updated !== 'object' || updated === null || Array.isArray(updated))) {
      return { behavior: 'deny', message: 'the SDK host allowed the call with an updatedInput that is not an object', answeredBy: SDK_ANSWERER };
    }
    const { warnings } = await applyPermissionUpdates(answer.updatedPermissions, deps.target());
    for (const w of warnings) deps.warn?.(`canUseTool: ${w}`);
    const changed = updated !== undefined && JSON.stringify(updated) !== JSON.stringify(req.input);
    return { behavior: 'allow', answeredBy: SDK_ANSWERER, ...(changed ? { updatedInput: updated } : {}) };
  }
  if (answer.behavior === 'deny') {
    // The turn ends as Claude Code's interrupt ends it; the call still gets this denial as its result.
    if (answer.interrupt === true) deps.interrupt?.();
    const message = typeof answer.message === 'string' && answer.message.trim() ? answer.message : `${SDK_ANSWERER} said no`;
    return { behavior: 'deny', message, answeredBy: SDK_ANSWERER };
  }
  return { behavior: 'deny', message: `${SDK_ANSWERER} answered neither "allow" nor "deny"`, answeredBy: SDK_ANSWERER };
}

/** Tools whose permission card is itself the question put to the person. */
const INTERACTION_TOOLS = new Set(['AskUserQuestion', 'ExitPlanMode']);

/** The request as Claude Code words it, with every field of the SDK's SDKControlPermissionRequest wicket can fill. */
export function requestBody(req: PermissionRequest, target: Pick<PermissionTarget, 'projectRoot' | 'additionalDirs' | 'permission' | 'cwd'>): ControlPayload {
  const why = reasonType(req);
  return {
    tool_name: req.toolName,
    ...permissionWords(req, target.cwd),
    input: req.input,
    permission_suggestions: suggestions(req, target),
    ...(req.blockedPath ? { blocked_path: req.blockedPath } : {}),
    decision_reason: req.reason,
    decision_reason_type: why,
    // A protected path is wicket's safety check, and only a person may pass it.
    ...(why === 'safetyCheck' ? { classifier_approvable: false } : {}),
    // An ask rule, a protected path, a tool that always asks: no "don't ask again" answer may be offered.
    ...(req.ruleCanAllow === false ? { suppress_always_allow_rule: true } : {}),
    ...(INTERACTION_TOOLS.has(req.toolName) ? { requires_user_interaction: true } : {}),
    ...(req.askRule ? { matched_ask_rule: askRuleField(req.askRule) } : {}),
    ...(req.mcpServer ? { mcp_server: { name: req.mcpServer.name, source: req.mcpServer.source } } : {}),
    tool_use_id: req.toolUseId,
    ...(req.agentId ? { agent_id: req.agentId } : {}),
  };
}

function askRuleField(rule: MatchedAskRule): ControlPayload {
  return { source: rule.source, tool_name: rule.toolName, ...(rule.ruleContent !== undefined ? { rule_content: rule.ruleContent } : {}) };
}

/**
 * The updates that would stop the asking: the suggested allow rules (to the local settings, where
 * "don't ask again" writes), acceptEdits for an edit in default mode, the folder of a path outside
 * the workspace. None when only a person may approve the call.
 */
function suggestions(req: PermissionRequest, target: Pick<PermissionTarget, 'projectRoot' | 'additionalDirs' | 'permission'>): ControlPayload[] {
  if (req.ruleCanAllow === false) return [];
  const out: ControlPayload[] = [];
  const rules = req.suggestions.map((raw) => parseRule(raw, 'localSettings')).filter((r) => !r.error);
  if (rules.length) {
    const values = rules.map((r) => ({ toolName: r.toolName, ...(r.specifier !== undefined ? { ruleContent: r.specifier } : {}) }));
    out.push({ type: 'addRules', rules: values, behavior: 'allow', destination: 'localSettings' });
  }
  if (req.blockedPath && !isInWorkspace(req.blockedPath, target)) {
    out.push({ type: 'addDirectories', directories: [path.dirname(req.blockedPath)], destination: 'session' });
  }
  const mode: PermissionMode = target.permission.mode;
  if (EDIT_TOOLS.has(req.toolName) && mode === 'default') out.push({ type: 'setMode', mode: 'acceptEdits', destination: 'session' });
  return out;
}

/** Claude Code's `decision_reason_type` for what made the call ask. */
function reasonType(req: PermissionRequest): string {
  const by = req.askedBy ?? '';
  if (by.startsWith('ask rule')) return 'rule';
  if (by.includes('hook')) return 'hook';
  if (by === 'protected path') return 'safetyCheck';
  if (by === 'symbolic link out of the workspace' || (req.blockedPath && /outside/.test(req.reason))) return 'workingDir';
  return 'other';
}
