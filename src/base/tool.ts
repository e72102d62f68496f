/**
 * The tool contract (PRODUCT.md §1). Every tool, built in or from an MCP server, is one object that
 * answers every question the runtime asks before anything runs. The runner (core/tool-runner.ts)
 * calls these members in a fixed order; a tool never prompts, never writes to the console and never
 * exits the process.
 */
import type { z } from 'zod';
import { zodLib } from './lib/zod-lib.js';
import type { Zod } from './lib/zod-parts.js';
import type { PermissionMode } from './permission-modes.js';
import type { ParsedRule } from './rule-parse.js';
import type { AskUser, PermissionRules } from './permission-types.js';
import type { ReadState } from './read-state.js';
import type { Todo } from './todos.js';
import type { AgentEvent, DisplayData, GateTrace, ModelResult, SystemBlock } from './events.js';
import type { HookGroup } from './hook-config.js';
import type { Effort } from './models.js';
import type { Usage } from './usage.js';
import type { FileHistoryRecorder } from './fs/atomic-write.js';
import type { TaskTracker } from './tasks.js';
import type { WorktreeHooks } from './worktree-hooked.js';
import type { LspAccess } from './lsp.js';

/** A progress update while a tool runs (Bash output tail, bytes fetched…). */
export interface ToolProgress {
  type: 'progress';
  message?: string;
  data?: Record<string, unknown>;
}

/** What a finished call hands back to the runner. */
export interface ToolOutput<O> {
  type: 'output';
  output: O;
}

/** The result of a tool's own validation (gate 3). */
export type ValidationResult = { ok: true } | { ok: false; message: string };

/**
 * A tool's own opinion on permission, consulted by permissions/decide.ts after the deny rules, the
 * ask rules and the mode have had their say, and after allow rules did not match.
 * - allow: safe by default (e.g. a read inside the working directory)
 * - ask:   needs a person; `suggestions` are rules a "don't ask again" answer would add
 * - deny:  never allowed in this situation
 */
export type ToolPermissionVerdict =
  | { behavior: 'allow'; reason?: string }
  | { behavior: 'ask'; reason: string; suggestions?: string[] }
  | { behavior: 'deny'; reason: string };

/** A path a call would touch, for Read(...) / Edit(...) rules and the protected-path checks. */
export interface PermissionPaths {
  access: 'read' | 'write';
  /** Absolute paths (already resolved against the cwd). */
  paths: string[];
  /**
   * Checked against deny and ask rules only: an allow rule on these paths does not approve the call,
   * and they are not protected-path writes (an MCP tool's path fields, whose effect is not known).
   */
  denyOnly?: boolean;
}

/** Mutable state shared by the calls of one session; changed only through context changes. */
export interface SessionState {
  /** The current working directory (Bash `cd` moves it). */
  cwd: string;
  /** What Read saw: path → version and ranges. */
  readState: ReadState;
  /** Tokens the last request's context held (the loop compacts when it passes the threshold). */
  contextTokens?: number;
  /** The model's task list (TodoWrite). */
  todos?: Todo[];
  /** The answer handed to StructuredOutput (--json-schema). */
  structuredOutput?: Record<string, unknown>;
  /** Allow rules granted until the current prompt's run ends (a skill's `allowed-tools`). */
  turnAllow?: ParsedRule[];
}

/** A change a finished call makes to shared state; applied strictly in call order (PRODUCT.md §3). */
export type ContextChange = (state: SessionState) => void;

/** Everything a tool may use. Injected, so tests need no mocking framework. */
export interface ToolContext {
  /** Current working directory for this call (a snapshot of SessionState.cwd). */
  cwd: string;
  /** The directory wicket was started in: the project. */
  projectRoot: string;
  /** Extra directories the session may touch (--add-dir, permissions.additionalDirectories). */
  additionalDirs: string[];
  /** The user's home directory (injected; tests use a temporary one). */
  homeDir: string;
  /** wicket's own state folder (~/.wicket or WICKET_HOME). */
  wicketHome: string;
  sessionId: string;
  toolUseId: string;
  signal: AbortSignal;
  permissionMode: PermissionMode;
  /** Read-only view of the session's read state; change it only through `contextChange`. */
  readState: ReadState;
  /** The session's task list as it is now (TodoWrite); change it only through `contextChange`. */
  todos?: readonly Todo[];
  /** Environment for subprocesses (process env plus settings `env`). */
  env: Record<string, string | undefined>;
  /** The session's permission rules, every source (read only: the engine decides, tools may look). */
  rules?: PermissionRules;
  /** Settings as merged (typed loosely: tools read only what they know). */
  settings: Record<string, unknown>;
  /** URLs that appeared in the conversation (user messages, tool results): WebFetch allows these. */
  seenUrls?: ReadonlySet<string>;
  /** The tools of the agent making the call (ToolSearch searches them). */
  tools?: readonly Tool[];
  /** Keeps each file's state before the file tools change it, for rewinding (core/file-history.ts). */
  fileHistory?: FileHistoryRecorder;
  /**
   * Runs a sub-agent (the Agent tool); provided by the loop. A `background` one may outlive the
   * turn: its cost reaches the session through its task's notice, not through the turn's events.
   */
  /**
   * One call through every gate outside the model's turn (a skill's inline shell), with `askUser`
   * answering what would ask and `allow` as extra allow rules for it; provided by the loop.
   */
  runGatedCall?: (call: { id: string; name: string; input: unknown }, o: { askUser: AskUser; allow: readonly ParsedRule[] }) => Promise<CallOutcome>;
  runSubagent?: (spec: SubagentSpec, signal: AbortSignal, onEvent: (ev: AgentEvent) => void, o?: { background?: boolean }) => Promise<SubagentResult>;
  /**
   * Connects the MCP servers an agent's definition gives each of its runs, and checks the session's
   * ones it names (the Agent tool); provided by the loop.
   */
  connectAgentServers?: (agent: AgentServersRequest, ctx: ToolContext) => Promise<AgentServers>;
  /** Where background work this call starts is reported, so its end reaches the model; provided by the loop. */
  backgroundTasks?: TaskTracker;
  /** The session's WorktreeCreate / WorktreeRemove hooks, which make and remove worktrees in place of git when configured. */
  worktreeHooks?: WorktreeHooks;
  /** Ask the configured small fast model a one-shot question (WebFetch). Optional in tests. */
  querySmallModel?: (prompt: string, opts: { signal: AbortSignal; system?: string }) => Promise<string>;
  /**
   * A web search by the API's server-side web_search tool, on the session's model (its usage and
   * the searches are counted in the session's cost). Absent where the provider offers none.
   */
  searchWeb?: (query: WebSearchQuery, signal: AbortSignal) => Promise<WebSearchAnswer>;
  /** The session's language servers (the LSP tool, diagnostics after edits); absent when they are off. */
  lsp?: LspAccess;
}

/** Context for the permission decision: the same as ToolContext, minus the per-call abort signal. */
export type PermissionContext = Omit<ToolContext, 'signal' | 'toolUseId'>;

/** Why a call needs a person (Tool.requiresPerson). */
export interface PersonNeeded {
  reason: string;
  /** In bypassPermissions mode, refuse instead of asking. */
  refuseInBypass?: boolean;
}

/** Which list a rule came from. */
export type RuleList = 'allow' | 'ask' | 'deny';

/** One WebSearch call as the API's web_search tool gets it. */
export interface WebSearchQuery {
  query: string;
  allowedDomains?: string[];
  blockedDomains?: string[];
  /** Searches the API may run for this call. */
  maxUses: number;
}

export interface WebSearchAnswer {
  /** Each search the API ran, with what it found (or the error it gave). */
  searches: Array<{ query: string; results: Array<{ title: string; url: string; pageAge?: string }>; error?: string }>;
  /** The model's text around the results. */
  text: string;
}

/** What a tool's description may depend on. */
export interface ToolDescriptionContext {
  cwd: string;
  platform: string;
  configDir?: string;
  projectRoot?: string;
  /** The session's environment (Bash's limits come from BASH_* variables). */
  env?: Record<string, string | undefined>;
  /** The merged settings. */
  settings?: Record<string, unknown>;
}

export interface Tool<I = any, O = any> {
  /** PascalCase name the model sees, e.g. `Read`. */
  readonly name: string;
  /** Older names accepted from the model and in rules (e.g. `BashOutput` for `TaskOutput`). */
  readonly aliases?: readonly string[];
  /** The description the model reads. */
  description(ctx: ToolDescriptionContext): string;
  /** Single source of the TS input type and the JSON Schema sent to the API. Use z.strictObject. */
  readonly inputSchema: z.ZodType<I>;
  /** The JSON Schema sent to the API when it does not come from `inputSchema` (an MCP server's own). */
  readonly inputJsonSchema?: Record<string, unknown>;
  /**
   * Left out of the request until ToolSearch loads it, when tool search is on (MCP tools, unless
   * their server marks them `anthropic/alwaysLoad` or its entry says `alwaysLoad: true`, and the MCP
   * resource tools). Its name is listed for the model meanwhile.
   */
  readonly shouldDefer?: boolean;
  /** Words ToolSearch matches besides the name and description (an MCP tool's `anthropic/searchHint`). */
  readonly searchHint?: string;

  /** Only reads? False when in doubt. */
  isReadOnly(input: I): boolean;
  /** May run beside other calls? False when in doubt. */
  isConcurrencySafe(input: I): boolean;
  /** Can it destroy something? Drives stricter prompts. */
  isDestructive?(input: I): boolean;

  /** Gate 3: the tool's own rules. Cheap, no side effects. */
  validateInput?(input: I, ctx: ToolContext): Promise<ValidationResult>;

  /**
   * For file tools: the paths this call touches, so Read(...)/Edit(...) rules and protected paths
   * are matched centrally. Tools without paths leave it out.
   */
  permissionPaths?(input: I, ctx: PermissionContext): PermissionPaths | undefined;
  /** The file a permission prompt names when permissionPaths names none (the first a Bash command writes, else reads). */
  askPath?(input: I, ctx: PermissionContext): string | undefined;
  /** For an MCP tool: its server and where the server's definition came from (`sdk`, `user`, `project`, `plugin`, …). */
  mcpServer?: { name: string; source: string };
  /**
   * For tools with their own rule specifiers (Bash commands, WebFetch domains): the first rule of
   * `rules` (all naming this tool and carrying a specifier) that applies to this input, or undefined.
   * For `deny`, any part of the input matching is enough; for `allow`, all of it must be covered.
   */
  matchRules?(input: I, rules: ParsedRule[], list: RuleList, ctx: PermissionContext): ParsedRule | undefined;
  /**
   * A reason this call always needs a person, whatever the mode, the allow rules or a hook say
   * (e.g. `rm -rf /`). Checked right after the ask rules. Undefined: nothing special. With
   * `refuseInBypass`, bypassPermissions mode (where a person would not be asked) refuses the call.
   */
  requiresPerson?(input: I, ctx: PermissionContext): string | PersonNeeded | undefined;
  /**
   * The person's answer comes as the call's input, changed by their dialog (AskUserQuestion's
   * `answers`): an approval with a changed input is not asked again for the person-only reason.
   */
  readonly answersInInput?: boolean;
  /** Text the permission prompt shows under the summary (ExitPlanMode: the plan, read from its file). */
  askPreview?(input: I, ctx: PermissionContext): string | undefined;
  /** The tool's default verdict when no rule and no mode decided. */
  checkPermissions(input: I, ctx: PermissionContext): Promise<ToolPermissionVerdict>;

  /** Gate 6: the effect. Yields progress, returns the output. Must honour ctx.signal. */
  call(input: I, ctx: ToolContext): AsyncGenerator<ToolProgress, O, void>;
  /** Gate 7: output → tool_result content for the model. */
  toModelResult(output: O, input: I): ModelResult;

  /** One line for logs, print mode and permission prompts. */
  summary(input: I): string;
  /** Data for the person: diff, preview, counts. */
  display?(output: O, input: I): DisplayData;
  /**
   * The output as Claude Code hands it to PostToolUse hooks (`tool_response`), where the shapes
   * differ (Edit and Write: `structuredPatch`, `originalFile`…); the output itself when absent.
   */
  toolResponse?(output: O, input: I): unknown;
  /** Optional change to shared state (read state, cwd), applied in call order. */
  contextChange?(output: O, input: I): ContextChange | undefined;
  /**
   * The permission mode once this call has run, when the call changes it (EnterPlanMode; an
   * approved ExitPlanMode). Applied at once, before the next call passes its gates. `chosen` is the
   * mode the person picked at this call's permission prompt, if any.
   */
  modeAfter?(output: O, current: PermissionMode, chosen: PermissionMode | undefined): PermissionMode | undefined;
  /**
   * Prepares what the first call needs (a parser, a library) while the model is thinking
   * (core/warm-up.ts). Must not touch the project or the network; may run without any call following.
   */
  warmUp?(): Promise<void>;
}

/** One call the model asked for, as the gate runner takes it (core/tool-runner.ts). */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** Set when the streamed input was not valid JSON. */
  inputError?: string;
}

/** What one call through every gate comes back as. */
export interface CallOutcome {
  result: ModelResult;
  trace: GateTrace;
  display?: DisplayData;
  contextChange?: ContextChange;
  /** A permission denial, for print mode's permission_denials. */
  denied?: string;
  /** A hook asked to stop the whole run. */
  stop?: string;
  /** The tool ran and failed (for sibling cancellation). */
  failed?: boolean;
  /** A PreToolUse hook deferred the call: it did not run, and the run ends so it can be resumed later. */
  deferred?: boolean;
  durationMs: number;
}

/** A sub-agent run as the Agent tool asks the session for one (ToolContext.runSubagent); the session runs it (core/subagent.ts). */
export interface SubagentSpec {
  agentType: string;
  prompt: string;
  system: SystemBlock[];
  /** Tool names it may use (undefined: all of the session's); Agent itself is never among them. */
  toolNames?: string[];
  disallowedTools?: string[];
  /** A model id (aliases already resolved); undefined: the session's. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** Its effort level (front matter `effort`); undefined: the session's. */
  effort?: Effort;
  /** Where it starts (its own worktree); undefined: the session's current folder. */
  cwd?: string;
  /** Texts it is given before its prompt, in its first message (skills it preloads). */
  context?: string[];
  /** MCP servers of the session whose tools it keeps, whatever `toolNames` says. */
  mcpServers?: string[];
  /** Tools of its own (its MCP servers'), beside the session's; they replace session tools of the same name. */
  extraTools?: Tool[];
  /** Hook groups that apply to its own calls only; `Stop` groups act as SubagentStop. */
  hooks?: HookGroup[];
  /** Allow rules for its run only (its memory folder), after the session's. */
  allow?: ParsedRule[];
  /** Problems found while starting it, reported as warnings when it starts. */
  warnings?: string[];
  /** It is given none of the project's and the user's instruction files (Explore, Plan): only the managed ones. */
  omitInstructions?: boolean;
}

/** An agent definition's MCP servers (frontmatter `mcpServers`), as the Agent tool hands them to the session. */
export interface AgentServersRequest {
  name: string;
  source: string;
  file?: string;
  /** A server of the session by name, or one defined inline (the `.mcp.json` entry format). */
  mcpServers?: Array<{ name: string; config?: Record<string, unknown> }>;
}

/** The servers one run of that agent gets: their tools, what could not be used, and how to end them. */
export interface AgentServers {
  tools: Tool[];
  warnings: string[];
  close(): Promise<void>;
}

export interface SubagentResult {
  agentId: string;
  text: string;
  reason: Extract<AgentEvent, { type: 'done' }>['reason'];
  error?: string;
  turns: number;
  toolCalls: number;
  usage: Usage;
  /** What it handed to a StructuredOutput tool of its own, if it did. */
  structuredOutput?: Record<string, unknown>;
}

/** Typed helper so tool modules get inference without casts. */
export function defineTool<I, O>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}

/** Runs a tool's call generator to its end, handing each progress update to `onProgress`. */
export async function drainCall<O>(gen: AsyncGenerator<ToolProgress, O, void>, onProgress: (p: ToolProgress) => void): Promise<O> {
  for (;;) {
    const step = await gen.next();
    if (step.done) return step.value;
    onProgress(step.value);
  }
}

/**
 * A zod schema built on first use, from the zod `build` is handed. Building every tool's schema
 * (and initialising zod) cost milliseconds at each start, and a run needs only those of the tools it
 * calls: the JSON Schemas the API sees are made at build time. The stand-in forwards every read to the real schema (zod's methods close over
 * their own instance, so `this` does not matter).
 */
export function lazySchema<T extends object>(build: (zod: Zod) => T): T {
  let real: T | undefined;
  const get = (): T => (real ??= build(zodLib().z));
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(get(), key),
    has: (_target, key) => Reflect.has(get(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
  });
}
