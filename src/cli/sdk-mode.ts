/**
 * The SDK mode (`--input-format stream-json --output-format stream-json`, with or without -p): the
 * face the Agent SDK drives. stdin is read from the start and never held up; the session is set up
 * once `initialize` (or the first user line) has come, with what initialize carries; then each
 * user line is a turn. Only JSON lines go to stdout; notes go to stderr.
 */
import { homedir } from 'node:os';
import type { AgentOptions } from '../core/agent-options.js';
import { unansweredToolUses } from '../base/conversation.js';
import { errorMessage, FatalError } from '../base/errors.js';
import type { HookLifecycleEvent } from '../hooks/types.js';
import { randomUuid } from '../base/ids.js';
import { loadResumed } from '../session/resume.js';
import { cleanupSessions, resumedSessionNotes, sessionTranscript } from '../core/setup/session-files.js';
import { McpConfigError } from '../mcp/config.js';
import { elicitationFlow, setSessionElicitation } from '../mcp/elicitation.js';
import type { McpServers } from '../mcp/servers.js';
import { emptyMcpServers, followMcpTools, mcpProblems, mcpServersFor, useMcpTools } from '../core/setup/mcp-setup.js';
import type { CliOptions } from '../core/setup/options.js';
import { debugLog, type DebugLog } from '../core/setup/debug-log.js';
import { watchSettingsSoon } from '../core/setup/settings-reload.js';
import { openSession } from '../core/setup/session-open.js';
import { setupSession, type Setup } from '../core/setup/session-setup.js';
import { SdkSession } from '../sdk/session.js';
import { ControlError } from '../sdk/control-channel.js';
import { SdkInput, type SdkUserLine } from '../sdk/input.js';
import { applyInitialize, Initialization, type AppliedFields } from '../sdk/initialize.js';
import { unhonouredFields } from '../sdk/initialize-fields.js';
import { StreamLines } from '../sdk/messages.js';
import { TurnRunner, type ExpandPrompt } from '../sdk/turns.js';
import { wireSdkGuards } from '../sdk/guards.js';
import { sdkHookCallbacks } from '../sdk/hook-callbacks.js';
import { sdkMcpServers } from '../sdk/mcp-links.js';
import { sdkElicitation } from '../sdk/elicitation.js';
import { initializeAnswer, initLine, registerRequests } from '../sdk/requests.js';
import type { McpHolder, SdkContext } from '../sdk/context.js';
import { printModeAskUser, gateTracesWanted } from './print-mode.js';
import { fallbackModels, settingsStop } from './run-common.js';
import { permissionPromptTool } from './permission-prompt-tool.js';
import { expandTyped } from './prompt-source.js';
import { StdoutWriter } from './stdout.js';

const SETTINGS_WATCH_DELAY_MS = 500;

interface Run {
  opts: CliOptions;
  info: RunInfo;
  abort: AbortController;
  stdout: StdoutWriter;
  session: SdkSession;
  input: SdkInput;
  init: Initialization;
  note: (s: string) => void;
  cleanup: Array<() => unknown>;
  /** The answers to the SDK's requests are registered. */
  handlersReady: () => void;
}

/** What the entry learns of the run: set when all output was written (nothing left to flush). */
export interface RunInfo {
  flushed?: boolean;
}

export async function runSdkMode(opts: CliOptions, info: RunInfo): Promise<number> {
  const abort = new AbortController();
  const stdout = new StdoutWriter({ onGone: () => abort.abort('EPIPE') });
  process.stderr.on('error', () => {});
  const note = (s: string) => void process.stderr.write(`wicket: ${s}\n`);
  const session = new SdkSession({ send: (m) => stdout.write(`${JSON.stringify(m)}\n`), permissionPromptStdio: opts.permissionPromptTool === 'stdio' });
  const init = new Initialization(session);
  const input = new SdkInput(session, { warn: (s) => note(`warning: ${s}`) });
  let handlersReady!: () => void;
  // Requests that come while the session is set up wait for their handlers (none is refused for being early).
  session.channel.holdUntil(new Promise<void>((resolve) => (handlersReady = resolve)));
  const run: Run = { opts, info, abort, stdout, session, input, init, note, cleanup: [handlersReady], handlersReady };
  const signals = onSignals(abort);
  try {
    input.read(process.stdin);
    for (const n of opts.notes ?? []) note(`warning: ${n}`);
    await input.started;
    const code = await runSession(run);
    await stdout.flushed();
    info.flushed = true;
    return stdout.gone ? 141 : code;
  } catch (err) {
    init.fail(err);
    const stopped = settingsStop(err);
    if (stopped !== undefined) return stopped;
    note(err instanceof FatalError || err instanceof ControlError ? err.message : `unexpected error: ${errorMessage(err)}`);
    return 1;
  } finally {
    for (const c of run.cleanup.reverse()) await c();
    signals();
  }
}

/** SIGINT and SIGTERM stop the turn and end the session (a second one ends the process at once). */
function onSignals(abort: AbortController): () => void {
  const onSig = (sig: NodeJS.Signals) => () => {
    if (abort.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    abort.abort(sig);
  };
  const onInt = onSig('SIGINT');
  const onTerm = onSig('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}

async function runSession(run: Run): Promise<number> {
  const { opts, session, note } = run;
  for (const n of unhonouredFields(session.init)) note(`warning: ${n}`);
  const applied: AppliedFields = applyInitialize(opts, session.init, process.cwd());
  const debug = debugLog(opts, (s) => void process.stderr.write(s));
  const setup = makeSetup(run, debug);
  run.cleanup.push(watchSettingsSoon(opts, setup, { env: process.env, home: process.env.HOME ?? homedir(), note }, SETTINGS_WATCH_DELAY_MS));
  run.cleanup.push(() => setup.options.lsp?.stop());
  const agent = agentOptions(run, setup);
  const mcp = await startMcp(run, setup, agent);
  const saved = loadResumed(setup.resumeFile, true, opts.resumeSessionAt);
  const messages = saved.messages;
  // A resumed session keeps the instruction files it was given; those changed since come with the next prompt.
  setup.options.instructions?.resumed(saved.instructions);
  const transcript = opts.persistSession ? sessionTranscript(setup, saved, 'sdk-cli', opts.name) : undefined;
  for (const n of resumedSessionNotes(setup, saved)) note(n);
  // `--permission-prompt-tool mcp__server__tool`: that MCP tool answers, as in print mode.
  if (opts.permissionPromptTool && opts.permissionPromptTool !== 'stdio') {
    if (!agent.tools.some((tool) => tool.name === opts.permissionPromptTool))
      throw new FatalError(
        'config',
        `--permission-prompt-tool: there is no MCP tool ${opts.permissionPromptTool} (its server must be in .mcp.json or --mcp-config, and connected)`,
      );
    agent.askUser = permissionPromptTool(opts.permissionPromptTool, () => agent.tools);
  }
  const guards = wireSdkGuards(session, agent, {
    // A can_use_tool denial with `interrupt: true` ends the turn as the SDK's interrupt does.
    interrupt: () => ctx.turns.interrupt(false),
    canBypass: !setup.loaded.disableBypassPermissions && (opts.dangerouslySkipPermissions || opts.allowDangerouslySkipPermissions),
    ...(process.env.CLAUDE_CONFIG_DIR ? { configDir: process.env.CLAUDE_CONFIG_DIR } : {}),
    note: (n) => note(`warning: ${n}`),
  });
  for (const n of guards.notes) note(`warning: ${n}`);
  const ctx = context(run, setup, agent, mcp, messages, debug, transcript);
  registerRequests(ctx);
  run.init.ready(() => initializeAnswer(ctx, applied, guards.hooksApplied));
  run.handlersReady();
  for (const w of setup.loaded.warnings) note(`warning: ${w}`);
  const opened = await openSession(setup, opts, messages, run.abort.signal);
  for (const w of opened.warnings) note(`warning: ${w}`);
  if (opened.title) transcript?.name(opened.title);
  // --agent's initialPrompt, a SessionStart hook's first message, and calls a hook deferred in a resumed session run first.
  const first: SdkUserLine[] = [];
  if (setup.agent?.initialPrompt) first.push({ content: setup.agent.initialPrompt, uuid: randomUuid() });
  if (opened.initialUserMessage) first.push({ content: opened.initialUserMessage, uuid: randomUuid() });
  else if (unansweredToolUses(messages).length) first.push({ content: '', uuid: randomUuid() });
  const code = await ctx.turns.run(first);
  cleanupSessions(setup);
  await agent.hooks.sessionEnd?.({ reason: 'other' }, new AbortController().signal);
  for (const n of agent.hooks.drainNotices?.() ?? []) note(n);
  return code;
}

function makeSetup(run: Run, debug: DebugLog | undefined): Setup {
  const { opts, stdout } = run;
  let setup: Setup | undefined;
  const hookLines = opts.includeHookEvents;
  const onHookEvent =
    hookLines || debug
      ? (e: HookLifecycleEvent) => {
          if (hookLines) stdout.write(`${JSON.stringify({ type: 'system', ...e, uuid: randomUuid(), session_id: setup?.options.sessionId })}\n`);
          debug?.hook(e);
        }
      : undefined;
  // The host's hook callbacks run beside the settings' hooks.
  const callbacks = sdkHookCallbacks(run.session);
  for (const w of callbacks.warnings) run.note(`warning: ${w}`);
  const sdkHooks = callbacks.groups.length ? { sdkHooks: { groups: callbacks.groups, run: callbacks.run } } : {};
  setup = setupSession(opts, { env: process.env, git: undefined, ...(onHookEvent ? { onHookEvent } : {}), ...sdkHooks });
  return setup;
}

function agentOptions(run: Run, setup: Setup): AgentOptions {
  return {
    ...setup.options,
    askUser: printModeAskUser,
    signal: run.abort.signal,
    allowDefer: true,
    fallbackModels: fallbackModels(run.opts, setup),
    waitForBackground: true,
    strictCompaction: true,
  };
}

/** The session's MCP servers (none until the SDK adds some, when none is configured). */
async function startMcp(run: Run, setup: Setup, agent: AgentOptions): Promise<McpHolder> {
  const hooks = setup.options.hooks;
  // What no Elicitation hook answers goes to the host (its onElicitation; the SDK declines without one).
  const elicitation = elicitationFlow({ hooks: () => hooks, ask: sdkElicitation(run.session), note: (n) => run.note(`warning: ${n}`) });
  setSessionElicitation(elicitation);
  let servers: McpServers | undefined;
  try {
    // The host's in-process servers (initialize's sdkMcpServers) start with the configured ones.
    servers = mcpServersFor(run.opts, setup, { holdUnapproved: false, elicitation, sdkServers: sdkMcpServers(run.session) });
  } catch (err) {
    if (err instanceof McpConfigError) throw new FatalError('config', err.message);
    throw err;
  }
  const holder: McpHolder = {
    servers,
    ensure: () => {
      if (!holder.servers) {
        holder.servers = emptyMcpServers(setup, { holdUnapproved: false, elicitation });
        follow(holder.servers);
      }
      return holder.servers;
    },
    refreshTools: () => {
      if (holder.servers) useMcpTools(agent, holder.servers, run.opts.tools);
    },
  };
  const follow = (s: McpServers) => run.cleanup.push(followMcpTools(agent, s, run.opts.tools), () => s.close());
  if (servers) {
    follow(servers);
    await servers.start();
    useMcpTools(agent, servers, run.opts.tools);
    for (const p of mcpProblems(servers, 'print')) run.note(`warning: ${p}`);
  }
  run.cleanup.push(() => elicitation.settled());
  return holder;
}

function context(
  run: Run,
  setup: Setup,
  agent: AgentOptions,
  mcp: McpHolder,
  messages: SdkContext['messages'],
  debug: DebugLog | undefined,
  transcript: SdkContext['transcript'],
): SdkContext {
  const { opts, session, input, stdout } = run;
  const write = (line: Record<string, unknown>) => stdout.write(`${JSON.stringify(line)}\n`);
  const lines = new StreamLines(write, () => agent, { includePartialMessages: opts.includePartialMessages, includeGateTraces: gateTracesWanted(opts, agent) });
  const env = process.env;
  const ctx = { opts, session, setup, base: agent, queue: input.turns, messages, mcp, write, ...(transcript ? { transcript } : {}) } as SdkContext;
  const expand: ExpandPrompt | undefined = opts.disableSlashCommands ? undefined : expander(run, setup, mcp);
  ctx.turns = new TurnRunner({
    session,
    base: agent,
    messages,
    queue: input.turns,
    lines,
    write,
    processSignal: run.abort.signal,
    stateEvents: env.CLAUDE_CODE_SDK_READS_SESSION_STATE === '1' || env.CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS === '1',
    replayUserMessages: opts.replayUserMessages,
    wantStructured: opts.jsonSchema !== undefined,
    ...(opts.maxBudgetUsd !== undefined ? { maxBudgetUsd: opts.maxBudgetUsd } : {}),
    initLine: (a) => initLine(ctx, a),
    ...(expand ? { expand } : {}),
    ...(transcript ? { transcript } : {}),
    ...(debug ? { debug } : {}),
  });
  return ctx;
}

/** A typed `/command` expands as print mode expands `-p "/name args"` (custom commands, skills, MCP prompts). */
function expander(run: Run, setup: Setup, mcp: McpHolder): ExpandPrompt {
  const mcpPrompts = {
    has: async (command: string) => Boolean(mcp.servers?.prompts().some((p) => p.command === command)),
    expand: async (text: string) => mcp.servers?.expandPrompt(text),
  };
  return async (text, agent) => {
    const r = await expandTyped(text, { opts: run.opts, setup, agent, mcpPrompts });
    for (const n of r.notices) run.note(n);
    if (r.error !== undefined) return { error: r.error };
    return { prompt: r.prompt, ...(r.context ? { context: r.context } : {}) };
  };
}
