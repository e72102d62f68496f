/**
 * Runs one `type: "mcp_tool"` hook: a tool of an MCP server the session has connected is called with
 * the hook's `input`, in whose string values `${path}` is replaced by that field of the event's JSON
 * (`${tool_input.file_path}`, `${session_id}`). The tool's text is read as a command hook's stdout
 * (a JSON decision, or plain text). A server that is not connected, an unknown tool or an error
 * result is a non-blocking error; the hook never starts a server or a sign-in. Never throws.
 */
import type { McpToolHook } from '../base/hook-config.js';
import { limitedRun, type HookRunOptions, type HookRunResult } from './run-command.js';

/** What a hook reads of an MCP `tools/call` result (mcp/result.ts has the whole shape). */
export interface McpHookResult {
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

/** The session's MCP servers, as a hook calls them. Rejects when the server is not connected. */
export interface McpHookTarget {
  callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpHookResult>;
}

/** Filled in once the session has its MCP servers (they are made after the hooks). */
export interface McpHookHolder {
  target?: McpHookTarget;
}

export async function runMcpToolHook(hook: McpToolHook, eventJson: string, holder: McpHookHolder | undefined, opts: HookRunOptions): Promise<HookRunResult> {
  const { signal, done } = limitedRun(opts);
  const target = holder?.target;
  if (!target) return done({ stdout: '', stderr: '', spawnError: `the MCP server "${hook.server}" is not connected` });
  let result: McpHookResult;
  try {
    result = await target.callTool(hook.server, hook.tool, fillInput(hook.input ?? {}, parseEvent(eventJson)), signal);
  } catch (err) {
    if (signal.aborted) return done({ stdout: '', stderr: '' });
    return done({ stdout: '', stderr: '', spawnError: (err as Error).message });
  }
  const text = resultText(result);
  if (result.isError) return done({ exitCode: 1, stdout: '', stderr: `the tool ${hook.tool} answered with an error${text.trim() ? `: ${text.trim()}` : ''}` });
  return done({ exitCode: 0, stdout: text, stderr: '' });
}

function parseEvent(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return {};
  }
}

/** The arguments with `${path}` in every string (in objects and arrays too) replaced from the event; a missing field becomes empty text. */
export function fillInput(input: Record<string, unknown>, event: unknown): Record<string, unknown> {
  return fill(input, event) as Record<string, unknown>;
}

function fill(value: unknown, event: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\$\{([\w.-]+)\}/g, (_m, p: string) => asText(lookup(event, p)));
  if (Array.isArray(value)) return value.map((v) => fill(v, event));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, event)]));
  return value;
}

function lookup(event: unknown, dotted: string): unknown {
  let at: unknown = event;
  for (const key of dotted.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function asText(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The result's text blocks, one after another; without any, its structured content as JSON. */
function resultText(result: McpHookResult): string {
  const texts = (result.content ?? []).filter((c) => c.type === 'text' && typeof c.text === 'string').map((c) => c.text!);
  if (texts.length) return texts.join('\n');
  return result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '';
}
