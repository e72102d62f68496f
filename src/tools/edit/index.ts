/**
 * Edit: exact string replacement, the strictest window. Every precondition (read before, unchanged
 * since, old text present once) is checked against the file on disk just before the atomic write.
 */
import type { z } from 'zod';
import { ToolError } from '../../base/errors.js';
import { writeAtomic } from '../../base/fs/atomic-write.js';
import { countChanges, diffHunks, formatUnifiedDiff, type DiffHunk } from '../fs/diff.js';
import { writeVerdict } from '../fs/permissions.js';
import { snippetAround, type Snippet } from '../fs/snippet.js';
import { formatNumberedLines } from '../read/format-lines.js';
import type { FileVersion } from '../../base/read-state.js';
import { resolveToolPath } from '../../base/paths.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { editDescription } from './description.js';
import { planEdit } from './plan.js';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    file_path: z.string().min(1).describe('The absolute path of the file to modify'),
    old_string: z.string().describe('The text to replace, exactly as it is in the file'),
    new_string: z.string().describe('The text to replace it with (must differ from old_string)'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false)'),
  }),
);

export type EditInput = z.infer<typeof inputSchema>;

export interface EditOutput {
  filePath: string;
  displayPath: string;
  created: boolean;
  replacements: number;
  hunks: DiffHunk[];
  snippet: Snippet;
  /** The version now on disk (the file counts as read at it). */
  version: FileVersion;
  /** The text before the edit (null for a file it created): hooks see it as `originalFile`. */
  originalFile: string | null;
}

export const editTool = defineTool<EditInput, EditOutput>({
  name: 'Edit',
  description: editDescription,
  inputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  isDestructive: () => false,

  async validateInput(input, ctx) {
    const planned = await planEdit(input, ctx);
    return planned.ok ? { ok: true } : planned;
  },

  permissionPaths: (input, ctx) => ({ access: 'write', paths: [resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir)] }),

  async checkPermissions(input, ctx) {
    return writeVerdict('Edit', resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir), ctx);
  },

  async *call(input, ctx) {
    const planned = await planEdit(input, ctx);
    if (!planned.ok) throw new ToolError('execution_failed', planned.message);
    if (ctx.signal.aborted) throw new ToolError('aborted', 'Edit was cancelled before writing.');
    const { plan } = planned;
    const version = await writeAtomic(plan.absPath, plan.bytes, { createParents: plan.created, history: ctx.fileHistory });
    return {
      filePath: plan.absPath,
      displayPath: plan.displayPath,
      created: plan.created,
      replacements: plan.replacements,
      hunks: diffHunks(plan.oldText, plan.newText),
      snippet: snippetAround(plan.newText, plan.firstLine, plan.newLineCount),
      version,
      originalFile: plan.created ? null : plan.oldText,
    };
  },

  toModelResult(out) {
    if (out.created) return { content: `Created ${out.filePath}.` };
    const what = out.replacements > 1 ? ` (${out.replacements} replacements; the first is shown)` : '';
    const numbered = formatNumberedLines(out.snippet.startLine, out.snippet.lines);
    return { content: `The file ${out.filePath} has been updated${what}. A snippet of the result:\n${numbered}` };
  },

  summary: (input) => `Edit ${input.file_path}${input.replace_all ? ' (replace all)' : ''}`,

  toolResponse: (out, input) => ({
    filePath: out.filePath,
    oldString: input.old_string,
    newString: input.new_string,
    originalFile: out.originalFile,
    structuredPatch: out.hunks,
    userModified: false,
    replaceAll: input.replace_all === true,
  }),

  display(out) {
    const { added, removed } = countChanges(out.hunks);
    const verb = out.created ? 'Created' : 'Updated';
    const count = out.created ? '' : ` ${out.replacements} replacement${out.replacements === 1 ? '' : 's'},`;
    return {
      summary: `${verb} ${out.displayPath}:${count} +${added} -${removed}`,
      diff: formatUnifiedDiff(out.displayPath, out.hunks, out.created),
      hunks: out.hunks,
    };
  },

  contextChange: (out) => (state) => state.readState.recordWrite(out.filePath, out.version),
});
