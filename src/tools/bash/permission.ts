/**
 * Bash's own permission verdict (consulted after deny rules, ask rules, the mode and allow rules):
 * read-only commands inside the workspace are allowed; anything unreadable, anything that runs code
 * it is given, and critical removals ask; the rest asks with "don't ask again" suggestions, unless it
 * runs in the sandbox with sandbox.autoAllowBashIfSandboxed or acceptEdits covers it.
 */
import { decideSandbox, isExcludedCommand, readSandboxSettings, type SandboxDecision } from '../../sandbox/index.js';
import { formatRule } from '../../base/rule-parse.js';
import type { PermissionContext, ToolPermissionVerdict } from '../../base/tool.js';
import { analyzeBash } from './analyze.js';
import type { Analysis } from './analysis.js';
import { isReadOnlyAnalysis } from './classify.js';
import { acceptEditsCovers, criticalRemoval, pathsOutsideWorkspace, readsOutsideWorkspace, settingsPathDeny } from './file-access.js';
import { MAX_ALLOWABLE_LENGTH, unapprovableShape } from './match.js';
import { initBashParser, isBashParserReady } from './parse.js';
import { suggestRules } from './suggest.js';
import { joinValues } from './words.js';

export interface BashPermissionInput {
  command: string;
  dangerouslyDisableSandbox?: boolean | undefined;
}

export async function defaultVerdict(input: BashPermissionInput, a: Analysis, ctx: PermissionContext): Promise<ToolPermissionVerdict> {
  const denied = settingsPathDeny(a, ctx);
  if (denied) return { behavior: 'deny', reason: `the command touches a path denied by ${formatRule(denied)}` };
  if (a.problems.length) return { behavior: 'ask', reason: `the command cannot be read safely: ${a.problems.join('; ')}` };
  if (input.command.length > MAX_ALLOWABLE_LENGTH)
    return { behavior: 'ask', reason: `the command is over ${MAX_ALLOWABLE_LENGTH} characters, too long to approve without a person` };
  if (input.dangerouslyDisableSandbox) return { behavior: 'ask', reason: 'the command asks to run outside the sandbox' };
  const critical = criticalRemoval(a, ctx);
  if (critical) return { behavior: 'ask', reason: `${critical}; removing a critical path always needs a person` };
  const runsCode = a.leaves.find((l) => l.runsCode && !l.denyOnly);
  if (runsCode) return { behavior: 'ask', reason: runsCode.runsCode! };
  const shape = unapprovableShape(a);
  if (shape) return { behavior: 'ask', reason: `the command holds ${shape}, which always needs a person's approval` };
  if (ctx.permissionMode === 'acceptEdits' && acceptEditsCovers(a, ctx))
    return { behavior: 'allow', reason: 'file commands inside the workspace (acceptEdits)' };
  if (isReadOnlyAnalysis(a)) {
    const outside = pathsOutsideWorkspace(a, ctx);
    if (!outside.length) return { behavior: 'allow', reason: 'read-only command' };
    return { behavior: 'ask', reason: `the command reads outside the project: ${outsideList(outside)}` };
  }
  const sandbox = await sandboxFor(input, ctx);
  const settings = readSandboxSettings(ctx.settings, ctx);
  if (sandbox.kind === 'sandboxed' && settings.autoAllowBashIfSandboxed) return { behavior: 'allow', reason: 'runs in the sandbox' };
  const outside = readsOutsideWorkspace(a, ctx);
  const also = outside.length ? `, and reads outside the project: ${outsideList(outside)}` : '';
  return { behavior: 'ask', reason: `the command may change files or run programs${also}`, suggestions: suggestRules(a) };
}

function outsideList(outside: Array<string | undefined>): string {
  return outside
    .map((p) => p ?? '(a path only known when it runs)')
    .slice(0, 3)
    .join(', ');
}

export async function sandboxFor(input: BashPermissionInput, ctx: PermissionContext): Promise<SandboxDecision> {
  const settings = readSandboxSettings(ctx.settings, ctx);
  if (!settings.enabled) return { kind: 'off' };
  await initBashParser();
  const commands = analyzeBash(input.command).leaves.map((l) => joinValues(l.words));
  const decision = await decideSandbox(settings, { dangerouslyDisableSandbox: input.dangerouslyDisableSandbox, commands });
  remember(input, settings.bwrapPath, decision.kind);
  return decision;
}

/** Sandbox decisions already made (validateInput makes one before the permission gate). */
const decided = new Map<string, SandboxDecision['kind']>();
const MAX_REMEMBERED = 256;

function keyOf(input: BashPermissionInput, bwrapPath: string): string {
  return `${bwrapPath}\0${input.dangerouslyDisableSandbox ? 1 : 0}\0${input.command}`;
}

function remember(input: BashPermissionInput, bwrapPath: string, kind: SandboxDecision['kind']): void {
  const key = keyOf(input, bwrapPath);
  decided.delete(key);
  decided.set(key, kind);
  if (decided.size > MAX_REMEMBERED) decided.delete(decided.keys().next().value!);
}

/**
 * Will this call run inside the sandbox (or not at all)? Read synchronously for the permission gate:
 * with sandbox.failIfUnavailable (the default) a call either runs sandboxed or is refused; otherwise
 * it counts as sandboxed only when the sandbox was found working for it.
 */
export function runsSandboxed(input: BashPermissionInput, ctx: PermissionContext): boolean {
  const settings = readSandboxSettings(ctx.settings, ctx);
  if (!settings.enabled || input.dangerouslyDisableSandbox || !isBashParserReady()) return false;
  const commands = analyzeBash(input.command).leaves.map((l) => joinValues(l.words));
  if (isExcludedCommand(commands, settings.excludedCommands)) return false;
  return settings.failIfUnavailable || decided.get(keyOf(input, settings.bwrapPath)) === 'sandboxed';
}
