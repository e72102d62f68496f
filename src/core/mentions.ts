/**
 * `@path` in a prompt, as in Claude Code: the file goes along with the prompt, read by a Read call
 * that passes the same gates as the model's (hooks, deny rules, the Read tool's own checks) and is
 * counted as read, so Edit can follow at once. `@server:uri` (`@docs:file://api/auth`) does the same
 * for an MCP server's resource, through ReadMcpResourceTool. The person named them, so where the
 * gates would ask, the answer is yes; a refusal or a failed read is said in the prompt instead. Words
 * after `@` that name no file and no resource (a decorator, a handle) stay plain text.
 */
import { statSync } from 'node:fs';
import { runCallOutsideTurn } from './agent-loop.js';
import type { AgentOptions } from './agent-options.js';
import type { ContentBlock } from '../base/events.js';
import { isReadResourceTool, READ_RESOURCE_TOOL, type ReadResourceTool } from '../mcp/resource-tools.js';
import { resolveToolPath } from '../base/paths.js';
import { readTool } from '../tools/read/index.js';
import { instructionsForTouches } from './instruction-touches.js';

/** At most this many mentions (files and resources) per prompt. */
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

/** `server:uri` in a mention: the server a connected one, or the URI with a scheme (`proto://…`). */
export function resourceMention(raw: string, servers: readonly string[]): { server: string; uri: string } | undefined {
  const m = /^([^\s:/\\]+):(\S+)$/.exec(raw);
  if (!m) return undefined;
  const [, server, uri] = m as unknown as [string, string, string];
  return servers.includes(server) || /^[a-zA-Z][\w+.-]*:\/\//.test(uri) ? { server, uri } : undefined;
}

/** Content blocks for the files and resources a prompt mentions; none when it mentions none. */
export async function attachMentions(text: string, opts: AgentOptions): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  const reader = opts.tools.find((t) => t.name === READ_RESOURCE_TOOL);
  const servers = isReadResourceTool(reader) ? reader.servers() : [];
  const read: string[] = [];
  for (const [i, raw] of findMentions(text).entries()) {
    const resource = resourceMention(raw, servers);
    const file = resolveToolPath(raw, opts.state.cwd, opts.homeDir);
    if (resource && (servers.includes(resource.server) || !isFile(file))) {
      blocks.push(...(await attachResource(raw, resource, opts, isReadResourceTool(reader) ? reader : undefined, i)));
      continue;
    }
    if (!isFile(file)) continue;
    const outcome = await runCallOutsideTurn(
      opts,
      { id: `mention_${i}`, name: readTool.name, input: { file_path: file } },
      { tools: [readTool], askUser: async () => ({ behavior: 'allow' }) },
    );
    blocks.push(...attached(outcome, raw, `Contents of @${raw} (attached by the person, already read):`));
    if (!outcome.denied && !outcome.result.isError) read.push(file);
  }
  // The instruction files of the folders the mentioned files are in come with them.
  blocks.push(...(await instructionsForTouches(read, opts, read, 'mention')));
  return blocks;
}

async function attachResource(
  raw: string,
  input: { server: string; uri: string },
  opts: AgentOptions,
  reader: ReadResourceTool | undefined,
  i: number,
): Promise<ContentBlock[]> {
  if (!reader) return [{ type: 'text', text: `(@${raw} was not attached: no connected MCP server offers resources)` }];
  const outcome = await runCallOutsideTurn(
    opts,
    { id: `mention_${i}`, name: READ_RESOURCE_TOOL, input },
    { tools: [reader], askUser: async () => ({ behavior: 'allow' }) },
  );
  return attached(outcome, raw, `Contents of the MCP resource @${raw} (attached by the person, already read; read it again only if it may have changed):`);
}

function attached(outcome: Awaited<ReturnType<typeof runCallOutsideTurn>>, raw: string, heading: string): ContentBlock[] {
  const { content, isError } = outcome.result;
  if (outcome.denied || isError) {
    const why = outcome.denied ?? (typeof content === 'string' ? unwrapError(content) : 'it could not be read');
    return [{ type: 'text', text: `(@${raw} was not attached: ${why})` }];
  }
  return [{ type: 'text', text: heading }, ...(typeof content === 'string' ? [{ type: 'text' as const, text: content }] : (content as ContentBlock[]))];
}

/** A gate's refusal without its markup: `<tool_use_error>[validate] why</tool_use_error>` → `why`. */
function unwrapError(text: string): string {
  return text.replace(/^<tool_use_error>(?:\[[\w-]+\] )?([\s\S]*)<\/tool_use_error>$/, '$1');
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
