/**
 * `@path` in a prompt, as in Claude Code: the file goes along with the prompt, read by the Read
 * tool's own code (line numbers, size limits, images, PDFs, notebooks) and counted as read, so Edit
 * can follow at once. The person named the file, so a path that would ask is read; a deny rule
 * still holds, and the prompt then says the file was not attached and why. Words after `@` that
 * name no file (a decorator, a handle) stay plain text.
 */
import { statSync } from 'node:fs';
import type { AgentOptions } from '../core/agent-options.js';
import type { ContentBlock } from '../core/events.js';
import { decidePermission } from '../permissions/decide.js';
import { resolveToolPath } from '../tools/paths.js';
import { readTool } from '../tools/read/index.js';
import { drainCall, type ModelResult, type ToolContext } from '../tools/tool.js';

/** At most this many files per prompt. */
const MAX_MENTIONS = 10;

/** `@path` or `@"path with spaces"`, at the start or after whitespace; trailing punctuation is not part of it. */
export function findMentions(text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\s)@(?:"([^"]+)"|([^\s"'`]+))/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = m[1] ?? m[2]!.replace(/[.,;:!?)\]}>]+$/, '');
    if (raw && !out.includes(raw)) out.push(raw);
  }
  return out.slice(0, MAX_MENTIONS);
}

/** Content blocks for the files a prompt mentions; none when it mentions none. */
export async function attachMentions(text: string, opts: AgentOptions): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  for (const raw of findMentions(text)) {
    const file = resolveToolPath(raw, opts.state.cwd, opts.homeDir);
    if (!isFile(file)) continue;
    const ctx = mentionContext(opts);
    const decision = await decidePermission({ tool: readTool, input: { file_path: file }, ctx, rules: opts.permission.rules, mode: opts.permission.mode });
    if (decision.behavior === 'deny') {
      blocks.push({ type: 'text', text: `(@${raw} was not attached: ${decision.reason})` });
      continue;
    }
    const result = await readMentioned(file, ctx, opts);
    blocks.push(...asBlocks(raw, result));
  }
  return blocks;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function mentionContext(opts: AgentOptions): ToolContext {
  return {
    projectRoot: opts.projectRoot,
    additionalDirs: opts.additionalDirs,
    homeDir: opts.homeDir,
    wicketHome: opts.wicketHome,
    sessionId: opts.sessionId,
    env: opts.env,
    settings: opts.settings,
    seenUrls: opts.seenUrls,
    cwd: opts.state.cwd,
    readState: opts.state.readState,
    signal: opts.signal,
    toolUseId: 'mention',
    permissionMode: opts.permission.mode,
    rules: opts.permission.rules,
  };
}

/** The Read tool's validate, call and result, and its read-state change. */
async function readMentioned(file: string, ctx: ToolContext, opts: AgentOptions): Promise<ModelResult> {
  const input = { file_path: file };
  try {
    const valid = await readTool.validateInput?.(input, ctx);
    if (valid && !valid.ok) return { content: valid.message, isError: true };
    const output = await drainCall(readTool.call(input, ctx), () => {});
    readTool.contextChange?.(output, input)?.(opts.state);
    return readTool.toModelResult(output, input);
  } catch (err) {
    return { content: err instanceof Error ? err.message : String(err), isError: true };
  }
}

function asBlocks(raw: string, result: ModelResult): ContentBlock[] {
  if (result.isError) return [{ type: 'text', text: `(@${raw} was not attached: ${typeof result.content === 'string' ? result.content : 'it could not be read'})` }];
  const parts = typeof result.content === 'string' ? [{ type: 'text' as const, text: result.content }] : result.content;
  return [
    { type: 'text', text: `Contents of @${raw} (attached by the person, already read):` },
    ...(parts as ContentBlock[]),
  ];
}
