/**
 * The permission decision as a pure function of rules, mode and the tool's own answers
 * (PRODUCT.md §2 gate 5; reference/claude-code.md §0 and §2.2):
 *   deny rules → ask rules → mode → allow rules → the tool's default.
 * First match wins within each list. Deny and ask rules hold in every mode, bypass included.
 * Writes to protected paths (protected.ts) ask in every mode but bypassPermissions: neither
 * acceptEdits nor an allow rule approves them.
 */
import type { PermissionContext, Tool } from '../base/tool.js';
import path from 'node:path';
import { isInside, isInWorkspace } from '../base/paths.js';
import type { PermissionMode } from '../base/permission-modes.js';
import { allowHint, DONT_ASK, PERSON_ONLY, unaskedDenial, unpunctuated } from './denial-text.js';
import { matchPathRules } from './path-rules.js';
import { pathForms, realPathDeep } from './real-path.js';
import { protectedReason } from './protected.js';
import { sessionPlanFile } from '../settings/plan-file.js';
import { userConfigDir } from '../settings/paths.js';
import { formatRule, ruleNamesTool, type ParsedRule } from '../base/rule-parse.js';
import type { PermissionDecision, PermissionRules } from '../base/permission-types.js';

export interface DecideArgs {
  tool: Tool;
  input: unknown;
  ctx: PermissionContext;
  rules: PermissionRules;
  mode: PermissionMode;
}

/** Tool names whose rules cover other tools: Read rules cover Grep/Glob, Edit rules cover Write/NotebookEdit. */
const READ_FAMILY = ['Read', 'Grep', 'Glob', 'LS'];
const EDIT_FAMILY = ['Edit', 'Write', 'NotebookEdit', 'MultiEdit'];

export function describeRule(rule: ParsedRule): string {
  return `${formatRule(rule)} [${rule.source}]`;
}

export async function decidePermission(args: DecideArgs): Promise<PermissionDecision> {
  const { mode } = args;
  const deny = matchList(args, 'deny');
  if (deny) return { behavior: 'deny', by: `deny rule ${describeRule(deny)}`, reason: `denied by the rule ${formatRule(deny)}` };
  const ask = matchList(args, 'ask');
  if (ask && mode === 'dontAsk') {
    return {
      behavior: 'deny',
      by: `ask rule ${describeRule(ask)} in dontAsk mode`,
      unasked: {},
      reason: unaskedDenial(DONT_ASK, PERSON_ONLY, `the rule ${formatRule(ask)} asks first`),
    };
  }
  if (ask) {
    const askRule = { source: ask.source, toolName: ask.toolName, ...(ask.specifier !== undefined ? { ruleContent: ask.specifier } : {}) };
    return { behavior: 'ask', by: `ask rule ${describeRule(ask)}`, reason: `the rule ${formatRule(ask)} asks first`, suggestions: [], askRule };
  }
  const person = args.tool.requiresPerson?.(args.input, args.ctx);
  const personal = typeof person === 'string' ? { reason: person } : person;
  if (personal && mode === 'dontAsk')
    return { behavior: 'deny', by: 'always asks, in dontAsk mode', unasked: {}, reason: unaskedDenial(DONT_ASK, PERSON_ONLY, personal.reason) };
  if (personal?.refuseInBypass && mode === 'bypassPermissions') {
    return {
      behavior: 'deny',
      by: 'needs a person, in bypassPermissions mode',
      reason: `${unpunctuated(personal.reason)}; bypassPermissions mode has no one to approve it`,
    };
  }
  if (personal) return { behavior: 'ask', by: 'always asks', reason: personal.reason, suggestions: [] };
  const byMode = decideByMode(args);
  if (byMode) return byMode;
  const guarded = protectedWrite(args);
  if (guarded) return guarded;
  const byEdits = acceptEdits(args);
  if (byEdits) return byEdits;
  const allow = matchList(args, 'allow');
  if (allow) return { behavior: 'allow', by: `allow rule ${describeRule(allow)}` };
  return decideByTool(args);
}

function decideByMode(args: DecideArgs): PermissionDecision | undefined {
  const { tool, input, mode } = args;
  if (mode === 'bypassPermissions') return { behavior: 'allow', by: 'mode bypassPermissions' };
  if (mode === 'plan' && !tool.isReadOnly(input)) {
    if (writesPlanFile(args)) return { behavior: 'allow', by: 'mode plan (the plan file)' };
    return {
      behavior: 'deny',
      by: 'mode plan',
      reason: 'plan mode is on: only read-only tools may run. Present your plan with ExitPlanMode and wait for approval before changing anything.',
    };
  }
  return undefined;
}

/** Plan mode's one writable file: the session's plan file, written by Write or Edit. */
function writesPlanFile(args: DecideArgs): boolean {
  if (args.tool.name !== 'Write' && args.tool.name !== 'Edit') return false;
  const paths = args.tool.permissionPaths?.(args.input, args.ctx);
  if (!paths || paths.paths.length !== 1) return false;
  const file = sessionPlanFile(args.ctx);
  if (path.resolve(paths.paths[0]!) !== file) return false;
  // Not a symbolic link (one placed there could lead anywhere), in a folder that really is in the
  // project or the user's config folder.
  const dir = realPathDeep(path.dirname(file));
  if (realPathDeep(file) !== path.join(dir, path.basename(file))) return false;
  const roots = [args.ctx.projectRoot, userConfigDir(args.ctx.homeDir, args.ctx.env.CLAUDE_CONFIG_DIR || undefined)].map(realPathDeep);
  return roots.some((r) => isInside(dir, r));
}

function acceptEdits(args: DecideArgs): PermissionDecision | undefined {
  const { tool, input, mode } = args;
  if (mode === 'acceptEdits' && EDIT_FAMILY.includes(tool.name)) {
    const paths = tool.permissionPaths?.(input, args.ctx);
    if (paths && paths.paths.length > 0 && paths.paths.every((p) => reallyInWorkspace(p, args.ctx))) {
      return { behavior: 'allow', by: 'mode acceptEdits' };
    }
  }
  return undefined;
}

/** A write to a protected path: ask (dontAsk: deny), whatever the allow rules or acceptEdits say. */
function protectedWrite(args: DecideArgs): PermissionDecision | undefined {
  const paths = args.tool.permissionPaths?.(args.input, args.ctx);
  if (!paths || paths.access !== 'write' || paths.denyOnly) return undefined;
  for (const p of paths.paths) {
    const why = protectedReason(p, args.ctx);
    if (!why) continue;
    const reason = `${p}: ${why}; writes there always need a person's approval`;
    if (args.mode === 'dontAsk')
      return { behavior: 'deny', by: 'protected path in dontAsk mode', unasked: {}, reason: unaskedDenial(DONT_ASK, PERSON_ONLY, reason) };
    return { behavior: 'ask', by: 'protected path', reason, suggestions: [] };
  }
  return undefined;
}

/** The tool's own default verdict, once no rule and no mode decided. */
async function decideByTool(args: DecideArgs): Promise<PermissionDecision> {
  const verdict = await args.tool.checkPermissions(args.input, args.ctx);
  const escape = verdict.behavior === 'allow' ? symlinkEscape(args) : undefined;
  if (escape) {
    if (args.mode === 'dontAsk') {
      return {
        behavior: 'deny',
        by: 'mode dontAsk',
        reason: unaskedDenial(DONT_ASK, allowHint(args.tool.name, escape.suggestions), escape.reason),
        unasked: { allowWith: escape.suggestions },
      };
    }
    return { behavior: 'ask', by: 'symbolic link out of the workspace', reason: escape.reason, suggestions: escape.suggestions };
  }
  if (verdict.behavior === 'allow') return { behavior: 'allow', by: `tool default${verdict.reason ? `: ${verdict.reason}` : ''}` };
  if (verdict.behavior === 'deny') return { behavior: 'deny', by: 'tool default', reason: verdict.reason };
  if (args.mode === 'dontAsk') {
    const allowWith = verdict.suggestions ?? [];
    return {
      behavior: 'deny',
      by: 'mode dontAsk',
      reason: unaskedDenial(DONT_ASK, allowHint(args.tool.name, allowWith), verdict.reason),
      unasked: { allowWith },
    };
  }
  return { behavior: 'ask', by: 'tool default', reason: verdict.reason, suggestions: verdict.suggestions ?? [] };
}

/**
 * The deny rule that covers one of the call's paths, if any. The runner asks before validation, so
 * that what validation would say (the file is missing, a similar name exists, what a cell holds)
 * cannot tell anything about a denied path: the permission gate refuses the call instead.
 */
export function pathDenyRule(tool: Tool, input: unknown, ctx: PermissionContext, rules: PermissionRules): ParsedRule | undefined {
  return matchPathList(
    tool,
    input,
    ctx,
    rules.deny.filter((r) => !r.error),
    'deny',
  );
}

function matchPathList(tool: Tool, input: unknown, ctx: PermissionContext, rules: ParsedRule[], list: 'allow' | 'ask' | 'deny'): ParsedRule | undefined {
  const paths = tool.permissionPaths?.(input, ctx);
  // Paths checked for deny and ask only (an MCP tool's path fields): a file rule does not approve the call.
  if (!paths || (paths.denyOnly && list === 'allow')) return undefined;
  // An Edit allow rule lets the tool read what it may change, as in Claude Code.
  const family = paths.access === 'read' ? (list === 'allow' ? ['Read', 'Edit'] : ['Read']) : list === 'allow' ? ['Edit'] : ['Edit', 'Read'];
  const fileRules = rules.filter((r) => r.specifier !== undefined && family.includes(r.toolName));
  return matchPathRules(paths, fileRules, list, ctx);
}

function matchList(args: DecideArgs, list: 'allow' | 'ask' | 'deny'): ParsedRule | undefined {
  const { tool, input, ctx } = args;
  // A loosely written rule (rule-parse.ts) still denies and asks, but approves nothing.
  const rules = args.rules[list].filter((r) => !r.error && !(list === 'allow' && r.loose));
  for (const rule of rules) {
    if (rule.specifier === undefined && bareRuleCovers(rule.toolName, tool, list)) return rule;
  }
  const hit = matchPathList(tool, input, ctx, rules, list);
  if (hit) return hit;
  if (tool.matchRules) {
    const own = rules.filter((r) => r.specifier !== undefined && ruleNamesTool(r.toolName, tool.name, tool.aliases));
    // Deny is fail-closed: the tool also checks what it finds itself (a Bash line reading a denied file).
    if (own.length || list === 'deny') return tool.matchRules(input, own, list, ctx);
  }
  return undefined;
}

/** Inside the workspace both as written and with symbolic links followed (the workspace's own links too). */
function reallyInWorkspace(p: string, ctx: DecideArgs['ctx']): boolean {
  const real = { projectRoot: realPathDeep(ctx.projectRoot), additionalDirs: ctx.additionalDirs.map(realPathDeep) };
  return pathForms(p).every((f) => isInWorkspace(f, ctx) || isInWorkspace(f, real));
}

/**
 * A tool allowed a path inside the workspace that is a link to somewhere outside it: that needs a
 * person. The suggested rules cover both the link and its target, as an allow needs both.
 */
function symlinkEscape(args: DecideArgs): { reason: string; suggestions: string[] } | undefined {
  const paths = args.tool.permissionPaths?.(args.input, args.ctx);
  const family = paths?.access === 'write' ? 'Edit' : 'Read';
  for (const p of paths?.paths ?? []) {
    if (!isInWorkspace(p, args.ctx) || reallyInWorkspace(p, args.ctx)) continue;
    const real = realPathDeep(p);
    const rel = path.relative(args.ctx.cwd, p).split(path.sep).join('/');
    const linkRule = isInside(p, args.ctx.cwd) && rel ? `${family}(./${rel})` : `${family}(/${p})`;
    return { reason: `${p} leads to ${real}, outside the workspace`, suggestions: [linkRule, `${family}(/${real})`] };
  }
  return undefined;
}

/**
 * A bare rule names the tool itself, or its family: `Edit` covers Write/NotebookEdit, `Read` covers
 * Grep/Glob. A bare `Edit` allow rule names the Edit tool only: in Claude Code it does not approve a
 * Write (while `Edit(path)` does).
 */
function bareRuleCovers(ruleTool: string, tool: Tool, list: 'allow' | 'ask' | 'deny'): boolean {
  if (ruleNamesTool(ruleTool, tool.name, tool.aliases)) return true;
  if (ruleTool === 'Edit') return list !== 'allow' && EDIT_FAMILY.includes(tool.name);
  if (ruleTool === 'Read') return READ_FAMILY.includes(tool.name);
  return false;
}

export { READ_FAMILY, EDIT_FAMILY };
