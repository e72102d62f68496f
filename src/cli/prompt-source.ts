/**
 * Print mode's prompts. The text is read first (the argument, with --agent's initialPrompt before
 * it; stdin text appended as context; or stream-json lines). Once the session is open, a typed slash
 * command (`-p "/name args"`, `/mcp__server__prompt`) expands, through UserPromptExpansion hooks, and
 * a SessionStart hook's initialUserMessage becomes the first prompt, ahead of the given one.
 */
import { expandSlashPrompt, parseSlash } from '../commands/custom-commands.js';
import { expansionOf, gateExpansion, type CommandOrigin } from '../commands/expansion-gate.js';
import { inlineBashRunner } from '../core/inline-bash.js';
import type { AgentOptions } from '../core/agent-options.js';
import type { ContentBlock } from '../base/events.js';
import { withInitialPrompt } from '../core/setup/main-agent.js';
import type { CliOptions } from '../core/setup/options.js';
import type { PromptWithContext } from '../core/run-prompt.js';
import type { Setup } from '../core/setup/session-setup.js';
import { readStdin, stdinIsTerminal, stdinLines } from './stdin.js';

export type PrintPrompt = string | ContentBlock[] | PromptWithContext;

/** What was given, before any expansion. */
export interface GivenPrompt {
  /** stream-json input: one prompt per line (--agent's initialPrompt first). */
  stream?: AsyncIterable<string | ContentBlock[]>;
  /** The argument, with --agent's initialPrompt before it. */
  typed?: string;
  /** Text piped on stdin, appended to the prompt. */
  piped: string;
}

export interface PromptSource {
  prompts?: AsyncIterable<PrintPrompt>;
  /** Why a slash command did not expand (a hook blocked it, its inline shell was refused). */
  error?: string;
  /** The custom command's allowed-tools. */
  allowedTools: readonly string[];
  /** Hook problems and messages for stderr. */
  notices: string[];
}

/** The MCP prompts of the session's servers (they wait for the servers to start). */
export interface McpPrompts {
  has(command: string): Promise<boolean>;
  expand(text: string): Promise<{ ok: true; text: string } | { ok: false; message: string } | undefined>;
}

export async function readPrompt(opts: CliOptions, setup: Setup): Promise<GivenPrompt> {
  if (opts.inputFormat === 'stream-json') return { stream: withFirst(setup.agent?.initialPrompt, stdinLines()), piped: '' };
  const piped = !stdinIsTerminal() ? await readStdin({ waitForFirstByteMs: opts.prompt ? 250 : undefined }) : '';
  const typed = withInitialPrompt(setup.agent, opts.prompt);
  return { ...(typed ? { typed } : {}), piped };
}

/**
 * The prompts to run. `initialUserMessage` (a SessionStart hook's) comes first; `pending` says the
 * conversation ends on calls a hook deferred, which run with no prompt at all.
 */
export async function promptSource(
  given: GivenPrompt,
  env: { opts: CliOptions; setup: Setup; agent: AgentOptions; mcpPrompts?: McpPrompts | undefined },
  initialUserMessage: string | undefined,
  pending: boolean,
): Promise<PromptSource> {
  if (given.stream) return { prompts: withFirst(initialUserMessage, given.stream), allowedTools: [], notices: [] };
  const expanded = given.typed !== undefined ? await expandTyped(given.typed, env) : { prompt: '', allowedTools: [], notices: [] };
  if (expanded.error !== undefined) return { error: expanded.error, allowedTools: [], notices: expanded.notices };
  const text = [expanded.prompt, given.piped.trim() ? given.piped : undefined].filter(Boolean).join('\n\n');
  const first: PrintPrompt | undefined = text.trim() ? (expanded.context ? { prompt: text, context: expanded.context } : text) : pending ? '' : undefined;
  const list: PrintPrompt[] = [];
  if (initialUserMessage) list.push(initialUserMessage);
  if (first !== undefined) list.push(first);
  return { ...(list.length ? { prompts: fromList(list) } : {}), allowedTools: expanded.allowedTools, notices: expanded.notices };
}

export interface Expanded {
  prompt: string;
  context?: string;
  error?: string;
  allowedTools: readonly string[];
  notices: string[];
}

/** `-p "/name args"` runs the custom command or skill `name`, `/mcp__server__prompt` the MCP prompt; other text stays as it is. */
export async function expandTyped(
  typed: string,
  env: { opts: CliOptions; setup: Setup; agent: AgentOptions; mcpPrompts?: McpPrompts | undefined },
): Promise<Expanded> {
  const { opts, setup, agent, mcpPrompts } = env;
  const notices: string[] = [];
  const parsed = parseSlash(typed);
  if (!parsed || opts.disableSlashCommands) return { prompt: typed, allowedTools: [], notices };
  const gate = async (name: string, args: string, origin: CommandOrigin) => {
    const g = await gateExpansion(agent.hooks, expansionOf(name, args, origin, typed), agent.signal);
    notices.push(...g.notices);
    return g;
  };
  if (parsed.name.startsWith('mcp__') && mcpPrompts && (await mcpPrompts.has(parsed.name))) {
    const g = await gate(parsed.name, parsed.args, 'mcp');
    if (!g.ok) return { prompt: '', error: g.message, allowedTools: [], notices };
    const r = await mcpPrompts.expand(typed);
    if (r && !r.ok) return { prompt: '', error: r.message, allowedTools: [], notices };
    return { prompt: r ? r.text : typed, ...(g.context ? { context: g.context } : {}), allowedTools: [], notices };
  }
  const ctx = { projectDir: setup.cwd, sessionId: setup.options.sessionId };
  const check = (cmd: { name: string; source: CommandOrigin }, args: string) => gate(cmd.name, args, cmd.source);
  const r = await expandSlashPrompt(typed, { projectRoot: setup.cwd, configDir: setup.configDir }, ctx, inlineBashRunner(agent), check);
  if (!r.ok) return { prompt: '', error: r.message, allowedTools: [], notices };
  return { prompt: r.text, ...(r.context ? { context: r.context } : {}), allowedTools: r.allowedTools, notices };
}

async function* fromList<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

/** A first prompt (--agent's initialPrompt, a SessionStart hook's initialUserMessage) ahead of the rest. */
async function* withFirst<T>(first: string | undefined, rest: AsyncIterable<T>): AsyncIterable<T | string> {
  if (first) yield first;
  yield* rest;
}
