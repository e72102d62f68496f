/** What Write will put on disk, decided against the file as it is now (validateInput and call). */
import { canEncode, encodeText, toCrlf, toLf, type EncodingInfo } from '../fs/encoding.js';
import { displayPath } from '../fs/permissions.js';
import { loadWriteTarget } from '../fs/write-target.js';
import { resolveToolPath } from '../../base/paths.js';
import type { ToolContext } from '../../base/tool.js';

export interface WritePlan {
  absPath: string;
  displayPath: string;
  created: boolean;
  /** Old and new content with LF line endings, for the diff. */
  oldText: string;
  newText: string;
  bytes: Buffer;
}

const UTF8: EncodingInfo = { encoding: 'utf8', bomLength: 0 };

export async function planWrite(
  input: { file_path: string; content: string },
  ctx: Pick<ToolContext, 'cwd' | 'homeDir' | 'readState'>,
): Promise<{ ok: true; plan: WritePlan } | { ok: false; message: string }> {
  const absPath = resolveToolPath(input.file_path, ctx.cwd, ctx.homeDir);
  const target = await loadWriteTarget(absPath, { readState: ctx.readState });
  if (!target.ok) return target;
  const base = { absPath, displayPath: displayPath(absPath, ctx.cwd), newText: toLf(input.content) };
  if (!target.exists) return { ok: true, plan: { ...base, created: true, oldText: '', bytes: encodeText(input.content, UTF8) } };
  const { file } = target;
  // The model never sees CRLF (Read shows LF), so plain newlines become the file's CRLF.
  const text = file.lineEnding === 'crlf' && !input.content.includes('\r\n') ? toCrlf(input.content) : input.content;
  const encoding = canEncode(text, file.encoding.encoding) ? file.encoding : UTF8;
  return { ok: true, plan: { ...base, created: false, oldText: toLf(file.text), bytes: encodeText(text, encoding) } };
}
