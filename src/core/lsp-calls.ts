/**
 * The session's language servers around one call: a file the call is about to change is opened at
 * its current content (what the server says of it then is the baseline), and once the call changed
 * it, the errors it did not have before are appended to the result the model reads (after a Bash
 * command too, for the files a server has open that it changed). A file Read
 * starts its server, so the edit that follows finds it warm. A server that is missing or crashed
 * becomes a warning, never the call's error.
 */
import type { AgentEvent, DisplayData, ModelResult } from '../base/events.js';
import type { Tool, ToolContext } from '../base/tool.js';
import { diagnosticsNote } from '../lsp/new-errors.js';
import { redactDiagnostic } from '../permissions/redact-literals.js';
import { readDeniedCheck } from '../permissions/path-rules.js';

/** Files this call writes, as its permission paths name them (Edit, Write, NotebookEdit). */
export function changedFiles(tool: Tool, input: unknown, ctx: ToolContext): string[] {
  if (!ctx.lsp || !tool.permissionPaths) return [];
  try {
    const p = tool.permissionPaths(input, ctx);
    if (!p || p.access !== 'write' || p.denyOnly) return [];
    return p.paths.filter((f) => ctx.lsp!.serves(f));
  } catch {
    return [];
  }
}

export async function beforeChange(ctx: ToolContext, files: readonly string[]): Promise<void> {
  if (!ctx.lsp || !files.length) return;
  await ctx.lsp.beforeChange(files).catch(() => undefined);
}

/**
 * Files a Bash call changed that a language server has open (the only ones whose errors it knows
 * before): found by reading them again after a command that is not read-only.
 */
export async function changedByCommand(tool: Tool, input: unknown, ctx: ToolContext): Promise<string[]> {
  if (!ctx.lsp || tool.name !== 'Bash' || safeReadOnly(tool, input)) return [];
  return ctx.lsp.changedOpenFiles().catch(() => []);
}

function safeReadOnly(tool: Tool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input);
  } catch {
    return false;
  }
}

/** The result with the new errors of the changed files appended, and their count for the person. */
export async function withDiagnostics(
  ctx: ToolContext,
  files: readonly string[],
  result: ModelResult,
  display: DisplayData | undefined,
): Promise<{ result: ModelResult; display: DisplayData | undefined }> {
  if (!ctx.lsp || !files.length || result.isError) return { result, display };
  const report = await ctx.lsp.afterChange(files, ctx.signal).catch(() => undefined);
  if (!report) return { result, display: display ? { ...display, diagnostics: 0 } : { diagnostics: 0 } };
  // A diagnostic may quote a value declared in a file a Read deny rule hides (a literal type).
  const note = diagnosticsNote(readDeniedCheck(ctx) ? { ...report, lines: report.lines.map(redactDiagnostic) } : report);
  const content = typeof result.content === 'string' ? `${result.content}\n\n${note}` : [...result.content, { type: 'text' as const, text: note }];
  return { result: { ...result, content }, display: { ...display, diagnostics: report.count } };
}

/** After a call: a Read file warms its server; warnings of the servers go to the session. */
export function afterCall(tool: Tool, input: unknown, ctx: ToolContext, emit: (e: AgentEvent) => void): void {
  const lsp = ctx.lsp;
  if (!lsp) return;
  if (tool.name === 'Read' && tool.permissionPaths) {
    try {
      for (const f of tool.permissionPaths(input, ctx)?.paths ?? []) lsp.touched(f);
    } catch {
      // nothing to warm
    }
  }
  for (const message of lsp.takeWarnings()) emit({ type: 'warning', message });
}
