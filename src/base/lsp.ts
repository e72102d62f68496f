/**
 * Language servers as the session knows them (lsp/ runs them): a server's configuration, the
 * operations of the LSP tool, and what tools and the gate runner may ask of the session's servers
 * (`LspAccess`, handed to tools as `ToolContext.lsp`).
 */

/** One language server, as a plugin's `lspServers` or a `.lsp.json` describes it. */
export interface LspServerConfig {
  /** The key it was given (`typescript`, `python`…), prefixed `plugin:<plugin>:` for a plugin's. */
  name: string;
  command: string;
  args: string[];
  /** `.ts` → `typescript`: the files it serves and the language id each is opened with. */
  extensionToLanguage: Record<string, string>;
  env?: Record<string, string>;
  initializationOptions?: unknown;
  /** Sent with workspace/didChangeConfiguration once it runs. */
  settings?: unknown;
  /** Milliseconds allowed for `initialize`. */
  startupTimeout?: number;
  /** Where it came from: `default`, `.lsp.json`, or `plugin:<name>`. */
  source: string;
}

export const LSP_OPERATIONS = [
  'goToDefinition',
  'findReferences',
  'hover',
  'documentSymbol',
  'workspaceSymbol',
  'goToImplementation',
  'prepareCallHierarchy',
  'incomingCalls',
  'outgoingCalls',
  'diagnostics',
] as const;
export type LspOperation = (typeof LSP_OPERATIONS)[number];

/** One request of the LSP tool: positions 1-based, as Read shows lines. */
export interface LspQuery {
  operation: LspOperation;
  /** Absolute path. */
  file: string;
  line: number;
  character: number;
  /** workspaceSymbol: the name searched for. */
  query?: string;
}

/** A place a server pointed at: 1-based line and column; `label` says what is there. */
export interface LspLocation {
  path: string;
  line: number;
  character: number;
  label?: string;
}

export type LspAnswer =
  /** `diagnostics`: the labels are a server's diagnostic messages. */
  | { kind: 'locations'; items: LspLocation[]; note?: string; diagnostics?: boolean }
  /** `definedIn`: where the symbol a hover describes is declared (null: the server could not say). */
  | { kind: 'text'; text: string; definedIn?: string[] | null }
  | { kind: 'unavailable'; reason: string };

/** Errors a server reported for changed files that were not there before the change. */
export interface DiagnosticsReport {
  /** `path:line:col: message` lines, already bounded. */
  lines: string[];
  /** How many new errors there were in all (more than `lines` when cut). */
  count: number;
}

export type LspServerStatus = 'starting' | 'running' | 'missing' | 'crashed' | 'stopped';

/** One server of the session, for /lsp and the SDK. */
export interface LspServerState {
  name: string;
  command: string;
  source: string;
  extensions: string[];
  /** The workspace folder it serves; undefined when it never started. */
  folder?: string;
  status: LspServerStatus | 'idle';
  error?: string;
}

/** What tools and the gate runner may ask of the session's language servers. */
export interface LspAccess {
  /** A file was read: its server starts (without waiting), so a later edit finds it warm. */
  touched(file: string): void;
  /** Files about to change: open at their current content, so what the server says of them now is the baseline. */
  beforeChange(files: readonly string[]): Promise<void>;
  /** Files changed: the server is told, and its new errors for them come back (waiting a bounded time). */
  afterChange(files: readonly string[], signal: AbortSignal): Promise<DiagnosticsReport | undefined>;
  /** Files the servers have open whose content on disk is no longer what they were told (a command changed them). */
  changedOpenFiles(): Promise<string[]>;
  /** Whether any server serves this file (configured, not known to be missing). */
  serves(file: string): boolean;
  query(q: LspQuery, signal: AbortSignal): Promise<LspAnswer>;
  servers(): LspServerState[];
  /** Warnings since the last call (a server not installed, or crashed), each said once per session. */
  takeWarnings(): string[];
  /** Stops every server (the session ends). */
  stop(): Promise<void>;
}
