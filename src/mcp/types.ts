/**
 * What an MCP server offers and answers, as wicket keeps it: its tools, prompts and resources as
 * listed, a call's result, and the connection the rest of mcp/ works through (connect.ts makes it).
 */
import type { InputValidator } from '../base/schema-check.js';

/** A tool as `tools/list` describes it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
  _meta?: Record<string, unknown>;
}

/** The connection a tool calls through. */
export interface McpCallTarget {
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; onProgress: (p: { progress: number; total?: number; message?: string }) => void },
  ): Promise<McpCallResult>;
  /** Loads the JSON Schema validator (with the SDK's bundle). */
  validator(schema: Record<string, unknown>): Promise<InputValidator | undefined>;
}

export interface McpContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** A prompt as `prompts/list` describes it; a slash command `/mcp__server__prompt` in wicket. */
export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

/** A resource as `resources/list` describes it. */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** One part of a `resources/read` result: text, or base64 `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export type McpListKind = 'tools' | 'prompts' | 'resources';

export interface McpConnection extends McpCallTarget {
  /** The lists as last listed: replaced when the server says one changed. */
  tools: McpToolInfo[];
  prompts: McpPromptInfo[];
  resources: McpResourceInfo[];
  /** The server declared the resources capability. */
  readonly hasResources: boolean;
  /** Lists the resources again (every page), keeping the answer as `resources`. */
  listResources(): Promise<McpResourceInfo[]>;
  readResource(uri: string, signal: AbortSignal): Promise<McpResourceContents[]>;
  /** Called after a list was listed again because the server said it changed. */
  onListChanged(listener: (kind: McpListKind) => void): void;
  /** The prompt's messages as one text (each message's text parts, in order). */
  getPrompt(name: string, args: Record<string, string>): Promise<string>;
  /** The server's instructions for the model, if it gave any. */
  instructions?: string;
  /** Called once if the connection ends before close() (the server exited or hung up). */
  onLost(listener: (why: string) => void): void;
  close(): Promise<void>;
}
