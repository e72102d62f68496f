/**
 * The words of a `can_use_tool` request, which an SDK host shows in its own dialog: the tool's
 * name as a person reads it (`display_name`), a sentence of what the call will do (`title`), and
 * the short subtitle Claude Code sends (`description`: a Bash call's own description, else its
 * command; a file tool's path, relative to the working directory when inside it). The host may be
 * any program, so the sentences name what the tool does, not the agent that asks.
 */
import path from 'node:path';
import type { PermissionRequest } from '../base/permission-types.js';

type Input = Record<string, unknown>;

const MAX_TEXT = 160;

export interface PermissionWords {
  display_name: string;
  title: string;
  description: string;
}

export function permissionWords(req: PermissionRequest, cwd: string): PermissionWords {
  const input: Input = req.input && typeof req.input === 'object' && !Array.isArray(req.input) ? (req.input as Input) : {};
  return { display_name: displayName(req), title: title(req, input, cwd), description: description(req, input, cwd) };
}

/** Claude Code's name for the tool: the built-in's own, `server - tool (MCP)` for an MCP tool. */
function displayName(req: PermissionRequest): string {
  const server = req.mcpServer?.name;
  const prefix = server ? `mcp__${server}__` : '';
  return server && req.toolName.startsWith(prefix) ? `${server} - ${req.toolName.slice(prefix.length)} (MCP)` : req.toolName;
}

function title(req: PermissionRequest, input: Input, cwd: string): string {
  const file = filePath(input, cwd);
  const str = (k: string) => (typeof input[k] === 'string' ? short(input[k] as string) : undefined);
  switch (req.toolName) {
    case 'Bash':
      return str('command') ? `Run the command: ${str('command')}` : 'Run a shell command';
    case 'Read':
      return file ? `Read ${file}` : 'Read a file';
    case 'Write':
      return file ? `Write ${file}` : 'Write a file';
    case 'Edit':
    case 'MultiEdit':
      return file ? `Edit ${file}` : 'Edit a file';
    case 'NotebookEdit':
      return file ? `Edit the notebook ${file}` : 'Edit a notebook';
    case 'WebFetch':
      return `Fetch content from ${host(str('url'))}`;
    case 'WebSearch':
      return str('query') ? `Search the web for: ${str('query')}` : 'Search the web';
    case 'Glob':
      return `Find files matching ${str('pattern') ?? 'a pattern'}${file ? ` in ${file}` : ''}`;
    case 'Grep':
      return `Search file contents for ${str('pattern') ?? 'a pattern'}${file ? ` in ${file}` : ''}`;
    case 'AskUserQuestion':
      return 'Answer a question';
    case 'ExitPlanMode':
      return 'Approve the plan and start carrying it out';
  }
  if (req.mcpServer) return `Use the tool ${req.toolName.replace(`mcp__${req.mcpServer.name}__`, '')} of the MCP server ${req.mcpServer.name}`;
  return `Use ${req.toolName}: ${short(req.summary)}`;
}

function description(req: PermissionRequest, input: Input, cwd: string): string {
  if (req.toolName === 'Bash') {
    const said = typeof input.description === 'string' && input.description.trim() ? input.description : undefined;
    return short(said ?? (typeof input.command === 'string' ? input.command : req.summary));
  }
  return filePath(input, cwd) ?? short(req.summary);
}

/** The file or folder the input names, relative to the working directory when inside it. */
function filePath(input: Input, cwd: string): string | undefined {
  const raw = [input.file_path, input.notebook_path, input.path].find((v): v is string => typeof v === 'string' && v !== '');
  if (!raw) return undefined;
  const abs = path.resolve(cwd, raw);
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : abs;
}

function host(url: string | undefined): string {
  try {
    return url ? new URL(url).hostname || url : 'a URL';
  } catch {
    return url ?? 'a URL';
  }
}

function short(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_TEXT ? `${one.slice(0, MAX_TEXT - 1)}…` : one;
}
