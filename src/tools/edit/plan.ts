/**
 * Everything Edit decides before it writes, against the file on disk now: run by validateInput
 * (to refuse early) and again by call (the file may have changed while a person was asked).
 */
import { canEncode, encodeText, toLf, type EncodingInfo } from '../fs/encoding.js';
import { isNotebookPath } from '../fs/file-kind.js';
import { displayPath } from '../fs/permissions.js';
import { readDeniedCheck } from '../../permissions/path-rules.js';
import { similarSiblings } from '../fs/similar-names.js';
import { loadWriteTarget } from '../fs/write-target.js';
import { resolveToolPath } from '../../base/paths.js';
import type { ToolContext } from '../../base/tool.js';
import { applyEdit, type EditResult } from './apply-edit.js';
import { describeNearMatch, findNearMatch } from './near-match.js';

export interface EditInput {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

export interface EditPlan {
  absPath: string;
  displayPath: string;
  created: boolean;
  /** Old and new content with LF line endings, for the diff and the snippet. */
  oldText: string;
  newText: string;
  /** The bytes to write: the file's encoding, BOM and line endings. */
  bytes: Buffer;
  replacements: number;
  firstLine: number;
  newLineCount: number;
}

export type PlanResult = { ok: true; plan: EditPlan } | { ok: false; message: string };

const UTF8: EncodingInfo = { encoding: 'utf8', bomLength: 0 };

export async function planEdit(
  input: EditInput,
  ctx: Pick<ToolContext, 'cwd' | 'homeDir' | 'readState'> & Partial<Pick<ToolContext, 'projectRoot' | 'rules'>>,
): Promise<PlanResult> {
  if (input.old_string === input.new_string) {
    return refuse('No changes to make: old_string and new_string are exactly the same.');
  }
  const absPath = resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir);
  if (isNotebookPath(absPath)) return refuse(`${absPath} is a Jupyter notebook. Use NotebookEdit to change its cells.`);
  const target = await loadWriteTarget(absPath, { readState: ctx.readState });
  if (!target.ok) return target;
  const base = { absPath, displayPath: displayPath(absPath, ctx.cwd) };
  if (!target.exists) {
    if (input.old_string !== '') return refuse(await missingMessage(absPath, ctx.cwd, readDeniedCheck(ctx)));
    const text = input.new_string;
    return done({
      ...base,
      created: true,
      oldText: '',
      newText: toLf(text),
      bytes: encodeText(text, UTF8),
      replacements: 1,
      firstLine: 1,
      newLineCount: lineCount(text),
    });
  }
  const { file } = target;
  if (input.old_string === '' && file.text.trim() !== '') {
    return refuse(
      `Cannot use an empty old_string on ${absPath}: the file exists and is not empty. ` +
        'Pass the text to replace as old_string, or use Write to replace the whole file.',
    );
  }
  const result: EditResult =
    input.old_string === ''
      ? { ok: true, content: input.new_string, replacements: 1, firstLine: 1, newLineCount: lineCount(input.new_string) }
      : applyEdit(file.text, input.old_string, input.new_string, input.replace_all === true);
  if (!result.ok && result.reason === 'ambiguous') {
    return refuse(
      `Found ${result.count} matches of old_string in ${absPath}, but replace_all is false. ` +
        'To replace every one, set replace_all to true; to replace one, add surrounding lines to old_string so it matches exactly once.',
    );
  }
  if (!result.ok) return refuse(notFoundMessage(absPath, file.text, input.old_string));
  if (!canEncode(result.content, file.encoding.encoding)) {
    return refuse(
      `${absPath} is Latin-1 encoded, and new_string has characters Latin-1 cannot hold. Use only characters from Latin-1, or convert the file first.`,
    );
  }
  return done({
    ...base,
    created: false,
    oldText: toLf(file.text),
    newText: toLf(result.content),
    bytes: encodeText(result.content, file.encoding),
    replacements: result.replacements,
    firstLine: result.firstLine,
    newLineCount: result.newLineCount,
  });
}

function notFoundMessage(absPath: string, text: string, oldString: string): string {
  let msg = `String to replace not found in ${absPath}.`;
  const near = findNearMatch(toLf(text), toLf(oldString));
  if (near) msg += `\n${describeNearMatch(near)}\nCopy old_string exactly as it is in the file (without Read's line-number prefix).`;
  else msg += ' Read the file again to see its current content, and copy old_string exactly.';
  return msg;
}

async function missingMessage(absPath: string, cwd: string, hidden?: (absPath: string) => boolean): Promise<string> {
  const similar = await similarSiblings(absPath, 3, hidden);
  let msg = `File does not exist: ${absPath} (current working directory: ${cwd}).`;
  if (similar.length > 0) msg += ` Did you mean ${similar.join(' or ')}?`;
  return `${msg} To create a new file, pass an empty old_string, or use Write.`;
}

function lineCount(text: string): number {
  return text.split('\n').length;
}

function done(plan: EditPlan): PlanResult {
  return { ok: true, plan };
}

function refuse(message: string): PlanResult {
  return { ok: false, message };
}
