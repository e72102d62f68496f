/** Default permission verdicts of the file tools, and the rules a "don't ask again" answer would add. */
import path from 'node:path';
import { isInside, isInWorkspace } from '../../base/paths.js';
import type { PermissionContext, ToolPermissionVerdict } from '../../base/tool.js';

/** A path as the person reads it: relative to the cwd when inside it, else absolute. */
export function displayPath(absPath: string, cwd: string): string {
  if (!isInside(absPath, cwd)) return absPath;
  return path.relative(cwd, absPath) || '.';
}

/**
 * The path part of a Read(...)/Edit(...) rule in Claude Code's syntax: relative to the cwd inside
 * it, `~/…` under the home directory, `//abs` elsewhere.
 */
export function ruleSpecifier(absPath: string, ctx: Pick<PermissionContext, 'cwd' | 'homeDir'>): string {
  const posix = (p: string) => p.split(path.sep).join('/');
  if (isInside(absPath, ctx.cwd) && absPath !== ctx.cwd) return posix(path.relative(ctx.cwd, absPath));
  if (isInside(absPath, ctx.homeDir) && absPath !== ctx.homeDir) return `~/${posix(path.relative(ctx.homeDir, absPath))}`;
  return `/${posix(absPath)}`;
}

/** Rules to suggest for a path: the file itself, and its directory unless that is the cwd. */
function suggestedRules(tool: 'Read' | 'Edit', absPath: string, ctx: PermissionContext): string[] {
  const rules = [`${tool}(${ruleSpecifier(absPath, ctx)})`];
  const dir = path.dirname(absPath);
  if (dir !== ctx.cwd && dir !== path.parse(dir).root) rules.push(`${tool}(${ruleSpecifier(dir, ctx)}/**)`);
  return rules;
}

/**
 * Reads inside the project (or an added directory) are allowed, and so are this session's own saved
 * tool outputs (`<wicketHome>/sessions/<sessionId>/`, where Bash keeps long output); anywhere else asks.
 */
export function readVerdict(absPath: string, ctx: PermissionContext): ToolPermissionVerdict {
  if (isInWorkspace(absPath, ctx)) return { behavior: 'allow', reason: 'inside the workspace' };
  if (ctx.wicketHome && ctx.sessionId && isInside(absPath, path.join(ctx.wicketHome, 'sessions', ctx.sessionId))) {
    return { behavior: 'allow', reason: "this session's saved tool output" };
  }
  return {
    behavior: 'ask',
    reason: `Read ${absPath}, outside the project directory`,
    suggestions: suggestedRules('Read', absPath, ctx),
  };
}

/** Writes always ask by default; acceptEdits and rules are decided centrally. */
export function writeVerdict(verb: string, absPath: string, ctx: PermissionContext): ToolPermissionVerdict {
  const where = isInWorkspace(absPath, ctx) ? '' : ', outside the project directory';
  return {
    behavior: 'ask',
    reason: `${verb} ${displayPath(absPath, ctx.cwd)}${where}`,
    suggestions: suggestedRules('Edit', absPath, ctx),
  };
}
