/**
 * `@path` in a prompt, as in Claude Code: the file goes along with the prompt, read by a Read call
 * that passes the same gates as the model's (hooks, deny rules, the Read tool's own checks) and is
 * counted as read, so Edit can follow at once. The person named the file, so where the gates would
 * ask, the answer is yes; a refusal is said in the prompt instead of the file. Words after `@` that
 * name no file (a decorator, a handle) stay plain text.
 */
import { statSync } from 'node:fs';
import { runCallOutsideTurn } from '../core/agent-loop.js';
import type { AgentOptions } from '../core/agent-options.js';
import type { ContentBlock } from '../core/events.js';
import { resolveToolPath } from '../tools/paths.js';
import { readTool } from '../tools/read/index.js';

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
  for (const [i, raw] of findMentions(text).entries()) {
    const file = resolveToolPath(raw, opts.state.cwd, opts.homeDir);
    if (!isFile(file)) continue;
    const outcome = await runCallOutsideTurn(
      opts,
      { id: `mention_${i}`, name: readTool.name, input: { file_path: file } },
      { tools: [readTool], askUser: async () => ({ behavior: 'allow' }) },
    );
    const { content, isError } = outcome.result;
    if (outcome.denied || isError) {
      const why = outcome.denied ?? (typeof content === 'string' ? content : 'it could not be read');
      blocks.push({ type: 'text', text: `(@${raw} was not attached: ${why})` });
      continue;
    }
    blocks.push({ type: 'text', text: `Contents of @${raw} (attached by the person, already read):` });
    blocks.push(...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : (content as ContentBlock[])));
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
