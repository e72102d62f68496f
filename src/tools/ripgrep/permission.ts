/**
 * The default permission verdict for a search: allowed inside the workspace (the project and the
 * additional directories), asked for anywhere else. Deny and allow rules (`Read(./secrets/**)`) are
 * matched centrally, before this runs.
 */
import { realpath } from '../../base/fs/lazy-fs.js';
import { isInWorkspace } from '../../base/paths.js';
import type { PermissionContext, ToolPermissionVerdict } from '../../base/tool.js';

/** The rule that would allow reading `absPath` (and, for a folder, everything below it). */
export function readRuleFor(absPath: string, isDir: boolean): string {
  const anchored = absPath.startsWith('/') ? `/${absPath}` : absPath;
  return isDir ? `Read(${anchored.replace(/\/$/, '')}/**)` : `Read(${anchored})`;
}

async function realOrSelf(p: string): Promise<string> {
  try {
    return await realpath(p);
  } catch {
    return p;
  }
}

/**
 * Inside the workspace both as written and once symbolic links are resolved: a link inside the
 * project that points elsewhere does not make the elsewhere part of the workspace.
 */
export async function isSearchInWorkspace(absRoot: string, ctx: PermissionContext): Promise<boolean> {
  if (!isInWorkspace(absRoot, ctx)) return false;
  const real = await realOrSelf(absRoot);
  if (real === absRoot || isInWorkspace(real, ctx)) return true;
  const dirs = await Promise.all([ctx.projectRoot, ...ctx.additionalDirs].map(realOrSelf));
  return isInWorkspace(real, { projectRoot: dirs[0]!, additionalDirs: dirs.slice(1) });
}

export async function searchPermission(toolName: string, absRoot: string, isDir: boolean, ctx: PermissionContext): Promise<ToolPermissionVerdict> {
  if (await isSearchInWorkspace(absRoot, ctx)) return { behavior: 'allow', reason: 'inside the workspace' };
  return {
    behavior: 'ask',
    reason: `${toolName} wants to search ${absRoot}, which is outside the workspace.`,
    suggestions: [readRuleFor(absRoot, isDir)],
  };
}
