/**
 * Write: create a file, or replace one the model has read and that has not changed since.
 * Atomic, keeps mode bits, encoding and CRLF; the person sees a diff against the old content.
 */
import type { z } from 'zod';
import { ToolError } from '../../base/errors.js';
import { writeAtomic } from '../../base/fs/atomic-write.js';
import { countChanges, diffHunks, formatUnifiedDiff, type DiffHunk } from '../fs/diff.js';
import { writeVerdict } from '../fs/permissions.js';
import type { FileVersion } from '../../base/read-state.js';
import { resolveToolPath } from '../../base/paths.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { writeDescription } from './description.js';
import { planWrite } from './plan.js';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    file_path: z.string().min(1).describe('The absolute path of the file to write (it is replaced if it exists)'),
    content: z.string().describe('The complete content to write to the file'),
  }),
);

export type WriteInput = z.infer<typeof inputSchema>;

export interface WriteOutput {
  type: 'create' | 'update';
  filePath: string;
  displayPath: string;
  lineCount: number;
  hunks: DiffHunk[];
  version: FileVersion;
  /** The text it replaced (null for a file it created): hooks see it as `originalFile`. */
  originalFile: string | null;
}

export const writeTool = defineTool<WriteInput, WriteOutput>({
  name: 'Write',
  description: writeDescription,
  inputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // It may replace a whole file; the path is not resolved here, so assume it does.
  isDestructive: () => true,

  async validateInput(input, ctx) {
    const planned = await planWrite(input, ctx);
    return planned.ok ? { ok: true } : planned;
  },

  permissionPaths: (input, ctx) => ({ access: 'write', paths: [resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir)] }),

  async checkPermissions(input, ctx) {
    return writeVerdict('Write', resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir), ctx);
  },

  async *call(input, ctx) {
    const planned = await planWrite(input, ctx);
    if (!planned.ok) throw new ToolError('execution_failed', planned.message);
    if (ctx.signal.aborted) throw new ToolError('aborted', 'Write was cancelled before writing.');
    const { plan } = planned;
    const version = await writeAtomic(plan.absPath, plan.bytes, { createParents: plan.created, history: ctx.fileHistory });
    return {
      type: plan.created ? 'create' : 'update',
      filePath: plan.absPath,
      displayPath: plan.displayPath,
      lineCount: plan.newText === '' ? 0 : plan.newText.replace(/\n$/, '').split('\n').length,
      hunks: diffHunks(plan.oldText, plan.newText),
      version,
      originalFile: plan.created ? null : plan.oldText,
    };
  },

  toModelResult(out) {
    if (out.type === 'create') return { content: `File created successfully at: ${out.filePath} (${out.lineCount} lines)` };
    return { content: `The file ${out.filePath} has been overwritten (${out.lineCount} lines).` };
  },

  summary: (input) => `Write ${input.file_path}`,

  toolResponse: (out, input) => ({
    type: out.type,
    filePath: out.filePath,
    content: input.content,
    // Claude Code gives a new file no patch.
    structuredPatch: out.type === 'create' ? [] : out.hunks,
    originalFile: out.originalFile,
    userModified: false,
  }),

  display(out) {
    const { added, removed } = countChanges(out.hunks);
    const verb = out.type === 'create' ? 'Created' : 'Wrote';
    return {
      summary: `${verb} ${out.displayPath} (${out.lineCount} lines, +${added} -${removed})`,
      diff: formatUnifiedDiff(out.displayPath, out.hunks, out.type === 'create'),
      hunks: out.hunks,
    };
  },

  contextChange: (out) => (state) => state.readState.recordWrite(out.filePath, out.version),
});
