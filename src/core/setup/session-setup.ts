/**
 * Builds everything one run needs from flags, environment and settings: the model client, the
 * tool list, the permission state, hooks, the system prompt. Pure set-up: no output, no exit.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { ModelClient } from '../../api/model-client.js';
import type { AgentOptions } from '../agent-options.js';
import type { GitStatus } from '../../base/git-status.js';
import { FileHistory } from '../file-history.js';
import { openSnapshots } from '../snapshots/open.js';
import { hookAgentRunner } from '../hook-agent.js';
import { DiskHistoryStore, MemoryHistoryStore } from '../file-history-store.js';
import { randomUuid } from '../../base/ids.js';
import { pickEffort, resolveModel } from '../../base/models.js';
import { maxOutputTokens, requireAvailable, toolConcurrency, webSearchOffered } from './model-choice.js';
import { buildSystemPrompt } from '../../session/system-prompt.js';
import { attributionPrompt } from '../../session/attribution.js';
import { TaskNotices } from '../task-notices.js';
import { continuedSessionId, resumeFile, sessionTranscriptPath } from '../../session/resume.js';
import { fileHistoryDir, projectSlug } from '../../session/paths.js';
import type { SessionPlaces } from '../../session/session-list.js';
import { createHooks, type HooksContext } from '../../hooks/create.js';
import { noHooks, type Hooks } from '../../hooks/types.js';
import type { McpHookHolder } from '../../hooks/run-mcp-tool.js';
import type { HookCallbackRunner } from '../../hooks/run-callback.js';
import type { HookGroup } from '../../base/hook-config.js';
import type { PermissionMode } from '../../base/permission-modes.js';
import { ruleNamesTool } from '../../base/rule-parse.js';
import { readDeniedCheck } from '../../permissions/path-rules.js';
import { readDenyPatterns } from '../../permissions/search-deny.js';
import { ownStateDenyRules } from '../../permissions/own-state.js';
import type { AskUser, PermissionRules } from '../../base/permission-types.js';
import { loadSettings, type LoadedSettings } from '../../settings/load.js';
import { SettingsUnreadableError } from '../../settings/problem.js';
import { supportWarnings } from '../../settings/support.js';
import { askOnce } from '../../api/ask-once.js';
import { costOf } from '../../base/usage.js';
import { sessionEnvDir } from '../../tools/bash/session-env.js';
import { resolveOutputStyle } from '../../settings/output-styles.js';
import { wicketHomeDir } from '../../settings/paths.js';
import { ReadState } from '../../base/read-state.js';
import { BUILTIN_TOOLS, PERSON_TOOLS } from '../../tools/registry.js';
import { modelSkills } from '../../tools/skill/index.js';
import { agentWarnings, loadAgentDefinitions, setCliAgents, type AgentDefinition } from '../../tools/agent/definitions.js';
import { STRICT_MCP_KEY } from '../../mcp/agent-servers.js';
import { addMainAgentHooks, mainAgent, mainAgentMemory, mainAgentTools } from './main-agent.js';
import { parseJsonSchema, STRUCTURED_OUTPUT_INSTRUCTION, structuredOutputTool } from '../../tools/structured-output/index.js';
import { mcpSdk } from '../../mcp/sdk-lib.js';
import type { Tool } from '../../base/tool.js';
import { usePlugins } from '../../plugins/session.js';
import type { PluginSet } from '../../plugins/types.js';
import type { CliOptions } from './options.js';
import { setupInstructions } from './instructions-setup.js';
import type { SessionInstructions } from '../../session/memory/session-instructions.js';
import { betasWarning, clientFromEnv, useProvider } from './client-setup.js';
import { createLspSession } from '../../lsp/session.js';
import type { LspAccess } from '../../base/lsp.js';
import { isWorkspaceTrusted } from '../../settings/trust.js';

export { parseCustomHeaders } from './client-setup.js';

export interface Setup {
  options: Omit<AgentOptions, 'signal' | 'askUser'>;
  loaded: LoadedSettings;
  /** --plugin-dir and enabledPlugins: what loaded, and what did not. */
  plugins: PluginSet;
  cwd: string;
  configDir: string;
  /** Where the saved sessions are: Claude Code's folder, wicket's, and this project. */
  places: SessionPlaces;
  /** The session file this run continues (--continue, --resume). */
  resumeFile?: string;
  /** The file this session writes: the resumed one when it goes on under its id, else a new one in this project's folder. */
  transcriptPath: string;
  /** --agent: the agent the session runs as. */
  agent?: AgentDefinition;
  /** Where the session's MCP servers go once made, for `mcp_tool` hooks. */
  hookMcp?: McpHookHolder;
  /** The instruction files (CLAUDE.md, rules, auto memory); undefined with --bare and in safe mode. */
  instructions?: SessionInstructions;
  /** The auto memory folder, when auto memory is on. */
  memoryDir?: string;
}

export interface SetupDeps {
  env: Record<string, string | undefined>;
  cwd?: string;
  home?: string;
  /** Injected in tests; built from env otherwise. */
  client?: ModelClient;
  hooksFactory?: (loaded: LoadedSettings, info: HookInfo) => Hooks;
  /** Git facts gathered in advance for the cwd (null: not a repository). */
  git?: GitStatus | null;
  /** Told when each settings hook starts and finishes (--include-hook-events). */
  onHookEvent?: HooksContext['onHookEvent'];
  /** The app's answer to the trust dialog; else the saved trust (settings/trust.ts). */
  trusted?: () => boolean;
  /** An Agent SDK host's hook callbacks (its initialize request): they run whatever the settings say of hooks. */
  sdkHooks?: { groups: HookGroup[]; run: HookCallbackRunner };
}

/** What the hook factory learns about the session (the settings hooks' own context, minus the tools). */
export type HookInfo = Omit<HooksContext, 'tools' | 'getCwd' | 'defaultTimeoutSec'>;

export function setupSession(opts: CliOptions, deps: SetupDeps): Setup {
  const env = deps.env;
  const cwd = realpathSync(deps.cwd ?? process.cwd());
  const home = deps.home ?? env.HOME ?? homedir();
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(home, '.claude');
  const wicketHome = wicketHomeDir(home, env);
  const loaded = sessionSettings(opts, env, cwd, home, deps.trusted);
  // The snapshots keep copies of denied files: denied with them.
  loaded.rules.deny.push(...ownStateDenyRules(loaded.rules.deny, wicketHome));
  const plugins = usePlugins({ ...opts, bare: opts.bare || opts.safeMode }, loaded, { cwd, home, env });
  // The search tools leave Read-denied paths out of wide searches (see tools/ripgrep/common.ts).
  const settings = {
    ...loaded.merged,
    __readDenyGlobs: readDenyPatterns(loaded.rules.deny, { projectRoot: cwd, homeDir: home }),
    // Agent files' own MCP servers stay off, as the settings' ones do.
    ...(opts.strictMcpConfig || opts.bare ? { [STRICT_MCP_KEY]: true } : {}),
  };
  const mode = startMode(opts, loaded);
  setCliAgents(opts.agents);
  loaded.warnings.push(...agentWarnings(loadAgentDefinitions(cwd, configDir)));
  const asAgent = opts.agent ? mainAgent(opts.agent, cwd, configDir) : undefined;
  // The Skill tool is offered only when there is a skill to run.
  let tools = visibleTools(BUILTIN_TOOLS, loaded.rules, opts.tools).filter(
    (t) => t.name !== 'Skill' || (!opts.disableSlashCommands && modelSkills(cwd, configDir).length > 0),
  );
  // In print mode nobody answers a question or approves a plan unless a permission prompt tool (or the SDK host's canUseTool) does.
  if ((opts.print || opts.inputFormat === 'stream-json') && !opts.permissionPromptTool) tools = tools.filter((t) => !PERSON_TOOLS.includes(t.name));
  // WebSearch runs the API's own web search, which Amazon Bedrock does not offer.
  const webSearch = webSearchOffered({ ...env, ...loaded.env });
  if (!webSearch) tools = tools.filter((t) => t.name !== 'WebSearch');
  if (asAgent) tools = mainAgentTools(tools, asAgent);
  if (asAgent && !opts.bare && !opts.safeMode) addMainAgentHooks(loaded, asAgent);
  const schema = opts.jsonSchema ? parseJsonSchema(opts.jsonSchema) : undefined;
  if (schema) tools = [...tools, structuredOutputTool(schema, () => mcpSdk().then((sdk) => sdk.Ajv))];
  const mergedEnv = { ...env, ...loaded.env };
  // The provider (Anthropic's API, Bedrock, Vertex AI, Foundry) decides what the aliases stand for.
  const provider = useProvider(mergedEnv, loaded.merged);
  loaded.warnings.push(...provider.warnings);
  const model =
    resolveModel(opts.model) ??
    resolveModel(asAgent?.model) ??
    resolveModel(mergedEnv.ANTHROPIC_MODEL) ??
    resolveModel(loaded.model) ??
    provider.aliases.sonnet;
  requireAvailable(model, loaded.merged);
  const smallModel = resolveModel(mergedEnv.ANTHROPIC_SMALL_FAST_MODEL) ?? provider.aliases.haiku;
  const places: SessionPlaces = { configDir, wicketHome, cwd };
  // The SDK's mode (stream-json in, with or without -p) continues as print mode does.
  const resumed = resumeFile({ ...opts, print: opts.print || opts.inputFormat === 'stream-json' }, places);
  // A resumed session goes on under its own id (and file), unless --fork-session.
  const sessionId = continuedSessionId(opts, resumed, places) ?? randomUuid();
  // --effort, then CLAUDE_CODE_EFFORT_LEVEL, then the agent's, then settings effortLevel; 'auto' leaves it to the model.
  const effort = pickEffort(opts.effort, mergedEnv.CLAUDE_CODE_EFFORT_LEVEL, asAgent?.effort, loaded.merged.effortLevel);
  const client = deps.client ?? clientFromEnv(mergedEnv, loaded.merged, { choice: provider.choice, cwd, smallModel, betas: opts.betas });
  const betas = betasWarning(provider.choice, opts.betas);
  if (betas) loaded.warnings.push(betas);
  const additionalDirs = [...loaded.additionalDirectories, ...opts.addDir.map((d) => safeRealpath(path.resolve(cwd, d)))];
  const agentMemory = asAgent ? mainAgentMemory(asAgent, { projectDir: cwd, configDir, env: mergedEnv }, loaded.warnings) : { rules: [] };
  loaded.rules.allow.push(...agentMemory.rules);
  const memory = setupInstructions(opts, { cwd, home, configDir, env: mergedEnv, loaded, additionalDirs, slug: projectSlug });
  loaded.rules.allow.push(...memory.rules);
  const permission = { mode, rules: loaded.rules };
  const lsp = sessionLsp(opts, { cwd, home, additionalDirs, env: mergedEnv, settings: loaded.merged, plugins, trusted: deps.trusted });
  loaded.warnings.push(...lsp.warnings);
  if (!lsp.lsp) tools = tools.filter((t) => t.name !== 'LSP');
  const transcriptPath = sessionTranscriptPath(places, sessionId, resumed);
  const state = { cwd, readState: new ReadState() };
  // Hooks read the live options (/effort changes the level mid-session).
  const live: { options?: Setup['options'] } = {};
  const hookMcp: McpHookHolder = {};
  const factory = deps.hooksFactory ?? ((l: LoadedSettings, info: HookInfo) => createHooks(l, { ...info, tools, getCwd: () => state.cwd }));
  // The SDK host's callbacks join the settings' groups (a settings reload keeps them); --bare leaves only them.
  const sdkGroups = deps.sdkHooks?.groups ?? [];
  loaded.hooks.push(...sdkGroups);
  const hooks =
    opts.bare && !sdkGroups.length
      ? noHooks
      : factory(opts.bare ? { ...loaded, hooks: sdkGroups } : loaded, {
          sessionId,
          cwd,
          projectRoot: cwd,
          transcriptPath,
          getPermissionMode: () => permission.mode,
          getEffort: () => live.options?.effort,
          env: mergedEnv,
          // Prompt hooks ask the small fast model, or the model the hook names.
          askModel: async (prompt, o) => {
            const model = resolveModel(o.model) ?? smallModel;
            const started = Date.now();
            const { text, final } = await askOnce(client, { model, prompt, system: o.system }, o.signal);
            o.onUsage?.({ usage: final.usage, costUsd: costOf(model, final.usage), model, apiDurationMs: Date.now() - started });
            return text;
          },
          // Agent hooks run a short read-only sub-agent on the session's options.
          runAgent: hookAgentRunner(() => live.options, transcriptPath),
          envFileDir: sessionEnvDir(wicketHome, sessionId),
          mcp: hookMcp,
          ...(deps.onHookEvent ? { onHookEvent: deps.onHookEvent } : {}),
          ...(deps.sdkHooks ? { hookCallback: deps.sdkHooks.run } : {}),
        });
  // The main conversation's output style (sub-agents keep their own prompts).
  const outputStyle = opts.bare || opts.safeMode ? {} : resolveOutputStyle(loaded.merged.outputStyle, cwd, configDir);
  if (outputStyle.error) loaded.warnings.push(outputStyle.error);
  const system = buildSystemPrompt({
    cwd,
    projectRoot: cwd,
    homeDir: home,
    configDir,
    systemPrompt: mainSystemPrompt(opts, asAgent),
    appendSystemPrompt:
      [opts.appendSystemPrompt, agentMemory.prompt, schema ? STRUCTURED_OUTPUT_INSTRUCTION : undefined].filter(Boolean).join('\n\n') || undefined,
    ...(memory.memoryDir ? { autoMemoryDir: memory.memoryDir } : {}),
    git: deps.git,
    hidden: readDeniedCheck({ rules: loaded.rules, cwd, projectRoot: cwd, homeDir: home }),
    ...(typeof loaded.merged.language === 'string' ? { language: loaded.merged.language } : {}),
    attribution: attributionPrompt(loaded.merged),
    ...(outputStyle.style ? { outputStyle: outputStyle.style } : {}),
  });
  live.options = {
    client,
    model,
    smallModel,
    tools,
    system,
    state,
    projectRoot: cwd,
    additionalDirs,
    homeDir: home,
    wicketHome,
    sessionId,
    permission,
    hooks,
    settings,
    env: mergedEnv,
    maxTurns: opts.maxTurns,
    maxTokens: maxOutputTokens(mergedEnv),
    ...(webSearch ? {} : { webSearch: false }),
    thinkingBudget: opts.thinkingBudget !== undefined ? budgetOrOff(opts.thinkingBudget) : thinkingBudget(mergedEnv, loaded.merged),
    effort,
    outputStyle: outputStyle.style?.name ?? 'default',
    // From the shell or the settings' env, as every variable of the table.
    maxToolConcurrency: toolConcurrency(mergedEnv),
    seenUrls: new Set<string>(),
    ...(memory.instructions ? { instructions: memory.instructions.conversation() } : {}),
    ...(loaded.merged.fileCheckpointingEnabled === false ? {} : { fileHistory: openFileHistory(wicketHome, sessionId, opts, resumed) }),
    ...(loaded.merged.fileCheckpointingEnabled === false || !opts.persistSession
      ? {}
      : // The project is watched where more than one prompt may come (the app, the SDK's stream of prompts), not for print mode's one.
        openSnapshots({
          wicketHome,
          root: cwd,
          home,
          sessionId,
          env: mergedEnv,
          watch: !opts.print || opts.inputFormat === 'stream-json',
          ...forkedFrom(resumed, sessionId),
        })),
    taskNotices: new TaskNotices(),
    ...(lsp.lsp ? { lsp: lsp.lsp } : {}),
  };
  return {
    loaded,
    plugins,
    cwd,
    configDir,
    places,
    transcriptPath,
    hookMcp,
    ...(resumed ? { resumeFile: resumed } : {}),
    ...(asAgent ? { agent: asAgent } : {}),
    ...(memory.instructions ? { instructions: memory.instructions } : {}),
    ...(memory.memoryDir ? { memoryDir: memory.memoryDir } : {}),
    options: live.options,
  };
}

/**
 * The session's file checkpoints: `<wicketHome>/file-history/<session-id>/`, kept with the session
 * so that --continue/--resume can still restore files; a fork starts from a copy of its parent's.
 * Without session persistence they live in memory for the run.
 */
function openFileHistory(wicketHome: string, sessionId: string, opts: CliOptions, resumed: string | undefined): FileHistory {
  if (!opts.persistSession) return new FileHistory(new MemoryHistoryStore());
  const dirOf = (id: string) => fileHistoryDir(wicketHome, id);
  const { parent } = forkedFrom(resumed, sessionId);
  return new FileHistory(new DiskHistoryStore(dirOf(sessionId), parent ? dirOf(parent) : undefined));
}

/** The session a fork (`--fork-session`) was made from: the resumed one, under another id. */
function forkedFrom(resumed: string | undefined, sessionId: string): { parent?: string } {
  const parent = resumed ? path.basename(resumed, '.jsonl') : undefined;
  return parent && parent !== sessionId ? { parent } : {};
}

/**
 * The settings a session in `cwd` runs with: every file, the managed policy, and the flags'. Throws
 * SettingsUnreadableError when a file cannot be read as settings: no session starts without one of
 * its files unless the person chose so (`opts.withoutSettings`, the app's notice).
 */
export function sessionSettings(opts: CliOptions, env: Record<string, string | undefined>, cwd: string, home: string, trusted?: () => boolean): LoadedSettings {
  const loaded = loadSettings({
    cwd,
    home,
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    managedPath: env.WICKET_MANAGED_SETTINGS || undefined,
    cliSettings: opts.settings,
    ...(opts.hostSettings !== undefined ? { hostSettings: opts.hostSettings } : {}),
    ...(opts.hostManagedSettings !== undefined ? { hostManagedSettings: opts.hostManagedSettings } : {}),
    cliAllowed: opts.allowedTools,
    cliDisallowed: opts.disallowedTools,
    ...(opts.settingSources ? { sources: opts.settingSources } : {}),
    ...(trusted ? { trusted } : {}),
    ...(opts.safeMode ? { safeMode: true } : {}),
    ...(opts.withoutSettings ? { without: opts.withoutSettings } : {}),
  });
  if (loaded.errors.length) throw new SettingsUnreadableError(loaded.errors, opts.settingSources);
  loaded.warnings.push(...supportWarnings(loaded.merged, env));
  return loaded;
}

/** The session's language servers: off with --bare (no plugins or project files either) and WICKET_LSP=0. */
function sessionLsp(
  opts: CliOptions,
  o: {
    cwd: string;
    home: string;
    additionalDirs: string[];
    env: Record<string, string | undefined>;
    settings: Record<string, unknown>;
    plugins: PluginSet;
    trusted?: () => boolean;
  },
): { lsp?: LspAccess; warnings: string[] } {
  if (opts.bare) return { warnings: [] };
  const trusted = (o.trusted ?? (() => isWorkspaceTrusted({ cwd: o.cwd, home: o.home, configDir: o.env.CLAUDE_CONFIG_DIR || undefined })))();
  return createLspSession({
    projectRoot: o.cwd,
    additionalDirs: o.additionalDirs,
    env: o.env,
    settings: o.settings,
    pluginServers: o.plugins.lspServers ?? [],
    trusted: trusted && !opts.safeMode,
  });
}

/** Claude Code's default thinking budget, used when settings turn thinking on without a number. */
const DEFAULT_THINKING_BUDGET = 31_999;

/** A budget as the API takes it: under 1024 tokens is thinking off. */
export function budgetOrOff(n: number): number | undefined {
  return n >= 1024 ? n : undefined;
}

/** MAX_THINKING_TOKENS (0 turns it off), else settings alwaysThinkingEnabled; undefined: no thinking. */
export function thinkingBudget(env: Record<string, string | undefined>, settings: Record<string, unknown>): number | undefined {
  const raw = env.MAX_THINKING_TOKENS?.trim();
  if (raw) {
    const n = Math.floor(Number(raw));
    if (Number.isFinite(n)) return n >= 1024 ? n : undefined;
  }
  return settings.alwaysThinkingEnabled === true ? DEFAULT_THINKING_BUDGET : undefined;
}

function startMode(opts: CliOptions, loaded: LoadedSettings): PermissionMode {
  if (opts.dangerouslySkipPermissions && !loaded.disableBypassPermissions) return 'bypassPermissions';
  const wanted = opts.permissionMode ?? loaded.defaultMode ?? 'default';
  if (wanted === 'bypassPermissions' && loaded.disableBypassPermissions) return 'default';
  return wanted;
}

/** Tools the model is shown: --tools restricts; a bare deny rule removes a tool. */
export function visibleTools(all: readonly Tool[], rules: PermissionRules, only?: string[]): Tool[] {
  return all.filter((t) => {
    if (only && !only.some((n) => n === t.name || t.aliases?.includes(n))) return false;
    return !rules.deny.some((r) => !r.error && r.specifier === undefined && ruleNamesTool(r.toolName, t.name, t.aliases));
  });
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export type { AskUser };

/** The system prompt the flags give: --system-prompt, else --agent's; the SDK's short default is followed by the agent's. */
function mainSystemPrompt(opts: CliOptions, agent: AgentDefinition | undefined): string | undefined {
  if (opts.systemPromptIsSdkDefault && opts.systemPrompt && agent?.systemPrompt) return `${opts.systemPrompt}\n\n${agent.systemPrompt}`;
  return opts.systemPrompt ?? agent?.systemPrompt;
}
