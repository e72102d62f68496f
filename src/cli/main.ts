/**
 * The command line: parse flags, pick the mode, run it, return the exit code. The only place that
 * touches argv, stdin, signals and exit codes.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { CommanderError } from 'commander';
import { grantAllowedTools } from '../commands/custom-commands.js';
import type { AgentOptions } from '../core/agent-options.js';
import { permissionEffects } from '../core/permission-updates.js';
import { unansweredToolUses } from '../base/conversation.js';
import { FatalError, errorMessage } from '../base/errors.js';
import { loadedOnDemand } from '../base/lib/import-module.js';
import type { GitStatus } from '../base/git-status.js';
import { randomUuid } from '../base/ids.js';
import type { HookLifecycleEvent } from '../hooks/types.js';
import { loadResumed } from '../session/resume.js';
import { cleanupSessionsDuringRun, resumedSessionNotes, sessionTranscript } from '../core/setup/session-files.js';
import { McpConfigError } from '../mcp/config.js';
import { elicitationFlow, setSessionElicitation, type ElicitationHandler } from '../mcp/elicitation.js';
import type { McpServers } from '../mcp/servers.js';
import { followMcpTools, mcpProblems, mcpServersFor, useMcpTools } from '../core/setup/mcp-setup.js';
import { buildProgram, normalizeOptions, swallowedPrompt, unknownOptionText, UsageError } from './options.js';
import type { CliOptions } from '../core/setup/options.js';
import { permissionPromptTool } from './permission-prompt-tool.js';
import { debugLog } from '../core/setup/debug-log.js';
import { watchSettingsSoon } from '../core/setup/settings-reload.js';
import { openSession } from '../core/setup/session-open.js';
import { printModeAskUser, runPrintMode } from './print-mode.js';
import { setupSession, type Setup } from '../core/setup/session-setup.js';
import { stdinIsTerminal } from './stdin.js';
import { promptSource, readPrompt } from './prompt-source.js';
import { StdoutWriter } from './stdout.js';
import { sdkModeWanted } from './sdk-flags.js';
import type { SessionWorktree } from './worktree-session.js';
import { safeModeWanted, setSafeMode } from '../settings/safe-mode.js';
import { fallbackModels, settingsStop } from './run-common.js';
import { flagScopeNotes } from '../core/setup/flag-scope.js';

export interface MainInfo {
  version: string;
  /** Set when the run went to the interactive app. */
  interactive?: boolean;
  /** Writes the code caches of the bundles loaded so far, when they lack this run's code (the entry's). */
  saveCodeCache?: () => void;
  /** Set when the run wrote all its output itself: the entry has nothing left to flush. */
  flushed?: boolean;
  /** `git status` for process.cwd(), started by the entry while the code loaded. */
  git?: Promise<GitStatus | null>;
}

export async function main(argv: string[], info: MainInfo): Promise<number> {
  if (argv[0] === 'config') return runConfigCommand(argv.slice(1));
  if (argv[0] === 'mcp') return (await import('./mcp-command.js')).runMcpCommand(argv.slice(1));
  if (argv[0] === 'plugin') return (await import('./plugin-command.js')).runPluginCommand(argv.slice(1));
  if (argv[0] === 'rewind') return (await import('./rewind-command.js')).runRewindCommand(argv.slice(1));
  if (argv[0] === 'rules') return (await import('./rules-command.js')).runRulesCommand(argv.slice(1));
  if (argv[0] === 'tools') return (await import('./tools-command.js')).runToolsCommand(argv.slice(1));
  if (argv[0] === 'trust') return (await import('./trust-command.js')).runTrustCommand(argv.slice(1));
  let opts: CliOptions;
  try {
    const program = buildProgram(info.version);
    program.parse(argv, { from: 'user' });
    const swallowed = swallowedPrompt(argv, program.args[0]);
    if (swallowed) throw new UsageError(swallowed);
    opts = normalizeOptions(program.opts(), program.args[0], (f) => readFileSync(f, 'utf8'));
    opts.safeMode = safeModeWanted(opts.safeMode, process.env);
    setSafeMode(opts.safeMode);
    if (opts.safeMode) opts.strictMcpConfig = true; // MCP servers only from --mcp-config
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      process.stderr.write(`wicket: ${unknownOptionText(err.message.replace(/^error: /, ''))}\nRun wicket --help for the flags.\n`);
      return 2;
    }
    process.stderr.write(`wicket: ${errorMessage(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
  if (opts.worktree === undefined) return runMode(opts, info);
  const { enterWorktree, leaveWorktree } = await import('./worktree-session.js');
  let worktree: SessionWorktree;
  try {
    worktree = await enterWorktree(opts, new AbortController().signal);
  } catch (err) {
    const stopped = settingsStop(err);
    if (stopped !== undefined) return stopped;
    process.stderr.write(`wicket: --worktree: ${errorMessage(err)}\n`);
    return 1;
  }
  // The entry's `git status` was for the folder left behind.
  delete info.git;
  const code = await runMode(opts, info);
  for (const line of await leaveWorktree(worktree)) process.stderr.write(`wicket: ${line}\n`);
  return code;
}

async function runMode(opts: CliOptions, info: MainInfo): Promise<number> {
  if (opts.initOnly) return runInitOnly(opts, info);
  const interactive = !opts.print && stdinIsTerminal() && opts.inputFormat === 'text';
  // The code cache follows the modes used too: a cache written by one mode lacks the other's code.
  loadedOnDemand().add(interactive ? '(interactive mode)' : '(print mode)');
  if (interactive) {
    info.interactive = true;
    const { runInteractive } = await import('./interactive.js');
    return runInteractive(opts, info);
  }
  if (sdkModeWanted(opts)) return (await import('./sdk-mode.js')).runSdkMode(opts, info);
  return runPrint(opts, info);
}

/** --init-only: the Setup hooks (trigger "init") run, their messages go to stderr, and nothing else starts. */
async function runInitOnly(opts: CliOptions, info: MainInfo): Promise<number> {
  let setup: Setup;
  const deps = { env: process.env, git: info.git ? await info.git : undefined };
  try {
    // No API key is needed to run hooks: a prompt hook then fails with the client's sentence.
    setup = setupSession(opts, deps);
  } catch (err) {
    const stopped = settingsStop(err);
    if (stopped !== undefined) return stopped;
    if (!(err instanceof FatalError && err.code === 'auth')) {
      process.stderr.write(`wicket: ${errorMessage(err)}\n`);
      return 1;
    }
    const noModel = err;
    setup = setupSession(opts, {
      ...deps,
      client: {
        async *stream() {
          throw noModel;
        },
      },
    });
  }
  for (const w of setup.loaded.warnings) process.stderr.write(`wicket: warning: ${w}\n`);
  const hooks = setup.options.hooks;
  await hooks.setup?.({ trigger: 'init' }, new AbortController().signal);
  for (const n of hooks.drainNotices?.() ?? []) process.stderr.write(`wicket: ${n}\n`);
  return 0;
}

/** Print mode watches the settings files only in a run that lasts longer than this. */
const SETTINGS_WATCH_DELAY_MS = 500;

async function runPrint(opts: CliOptions, info: MainInfo): Promise<number> {
  const abort = new AbortController();
  const onSig = (sig: NodeJS.Signals) => () => {
    if (abort.signal.aborted) process.exit(sig === 'SIGINT' ? 130 : 143);
    abort.abort(sig);
  };
  const onInt = onSig('SIGINT');
  const onTerm = onSig('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  // The reader went away (`wicket -p … | head -1`): stop the run instead of spending more turns,
  // and end as a program killed by SIGPIPE would (141), without a stack trace.
  const stdout = new StdoutWriter({ onGone: () => abort.abort('EPIPE') });
  process.stderr.on('error', () => {});
  let closeMcp: () => Promise<void> | undefined = () => undefined;
  let stopLsp: () => Promise<void> | undefined = () => undefined;
  let stopWatching = () => {};
  try {
    let setup: Setup | undefined;
    const debug = debugLog(opts, (s) => void process.stderr.write(s));
    const hookLines = opts.includeHookEvents && opts.outputFormat === 'stream-json';
    const onHookEvent =
      hookLines || debug
        ? (e: HookLifecycleEvent) => {
            if (hookLines) stdout.write(`${JSON.stringify({ type: 'system', ...e, uuid: randomUuid(), session_id: setup?.options.sessionId })}\n`);
            debug?.hook(e);
          }
        : undefined;
    try {
      setup = setupSession(opts, { env: process.env, git: info.git ? await info.git : undefined, ...(onHookEvent ? { onHookEvent } : {}) });
    } catch (err) {
      const stopped = settingsStop(err);
      if (stopped !== undefined) return stopped;
      process.stderr.write(`wicket: ${errorMessage(err)}\n`);
      return 1;
    }
    const home = process.env.HOME ?? homedir();
    const lsp = setup.options.lsp;
    stopLsp = () => lsp?.stop();
    stopWatching = watchSettingsSoon(
      opts,
      setup,
      { env: process.env, home, note: (n) => void process.stderr.write(`wicket: ${n}\n`) },
      SETTINGS_WATCH_DELAY_MS,
    );
    let mcp: McpServers | undefined;
    let elicitation: ElicitationHandler | undefined;
    try {
      // Nobody can answer a server's request for input here: hooks may, else it is cancelled.
      const hooks = setup.options.hooks;
      elicitation = elicitationFlow({ hooks: () => hooks, note: (n) => void process.stderr.write(`wicket: warning: ${n}\n`) });
      setSessionElicitation(elicitation);
      mcp = mcpServersFor(opts, setup, { holdUnapproved: false, elicitation });
    } catch (err) {
      if (!(err instanceof McpConfigError)) throw err;
      process.stderr.write(`wicket: ${err.message}\n`);
      return 1;
    }
    for (const w of [...(opts.notes ?? []), ...flagScopeNotes(opts, 'print'), ...setup.loaded.warnings]) process.stderr.write(`wicket: warning: ${w}\n`);
    // The run ends once the model is done and no background task it started is still running.
    const agent: AgentOptions = {
      ...setup.options,
      askUser: printModeAskUser,
      signal: abort.signal,
      allowDefer: true,
      fallbackModels: fallbackModels(opts, setup),
      waitForBackground: true,
      strictCompaction: true,
    };
    // A PermissionRequest hook's updatedPermissions apply to the run; its interrupt ends the run.
    agent.permissionEffects = permissionEffects(agent, {
      canBypass: !setup.loaded.disableBypassPermissions && (opts.dangerouslySkipPermissions || opts.allowDangerouslySkipPermissions),
      ...(process.env.CLAUDE_CONFIG_DIR ? { configDir: process.env.CLAUDE_CONFIG_DIR } : {}),
      interrupt: () => abort.abort(new Error('interrupted')),
    });
    // The servers start while the prompt is read; the model sees their tools from the first request.
    const mcpReady = mcp?.start();
    closeMcp = () => mcp?.close();
    // `-p "/mcp__server__prompt args"` needs its server: it waits for the servers to start.
    const servers = mcp;
    const mcpPrompts = servers && {
      has: async (command: string) => (await mcpReady, servers.prompts().some((p) => p.command === command)),
      expand: async (text: string) => (await mcpReady, servers.expandPrompt(text)),
    };
    const given = await readPrompt(opts, setup);
    const saved = loadResumed(setup.resumeFile, true);
    const messages = saved.messages;
    // A resumed session keeps the instruction files it was given; those changed since come with the next prompt.
    setup.options.instructions?.resumed(saved.instructions);
    const transcript = opts.persistSession ? sessionTranscript(setup, saved, 'sdk-cli', opts.name) : undefined;
    for (const n of resumedSessionNotes(setup, saved)) process.stderr.write(`wicket: ${n}\n`);

    const io = { out: (s: string) => stdout.write(s), err: (s: string) => void process.stderr.write(s) };
    if (mcp) {
      await mcpReady;
      useMcpTools(agent, mcp, opts.tools);
      followMcpTools(agent, mcp, opts.tools);
      for (const p of mcpProblems(mcp, 'print')) process.stderr.write(`wicket: warning: ${p}\n`);
    }
    // `stdio` names the Agent SDK host, which only the SDK mode can ask: here a call that would ask is refused.
    if (opts.permissionPromptTool === 'stdio')
      io.err('wicket: warning: --permission-prompt-tool stdio needs --input-format stream-json; a call that would ask is refused\n');
    else if (opts.permissionPromptTool) {
      if (!agent.tools.some((tool) => tool.name === opts.permissionPromptTool)) {
        process.stderr.write(
          `wicket: --permission-prompt-tool: there is no MCP tool ${opts.permissionPromptTool} (its server must be in .mcp.json or --mcp-config, and connected)\n`,
        );
        return 1;
      }
      agent.askUser = permissionPromptTool(opts.permissionPromptTool, () => agent.tools);
    }
    const opened = await openSession(setup, opts, messages, abort.signal);
    for (const w of opened.warnings) process.stderr.write(`wicket: warning: ${w}\n`);
    if (opened.title) transcript?.name(opened.title);
    // A session resumed on a call a hook deferred needs no prompt: the call runs, then the model goes on.
    const source = await promptSource(given, { opts, setup, agent, mcpPrompts }, opened.initialUserMessage, unansweredToolUses(messages).length > 0);
    for (const n of source.notices) process.stderr.write(`wicket: ${n}\n`);
    if (source.error) {
      process.stderr.write(`wicket: ${source.error}\n`);
      return 1;
    }
    // A custom command's allowed-tools are allow rules for the run it starts.
    grantAllowedTools(agent.permission.rules, source.allowedTools);
    const prompts = source.prompts;
    if (!prompts) {
      process.stderr.write('wicket: no prompt: pass one with -p "…" or on stdin\n');
      return 2;
    }
    const mcpServers = mcp?.list().map((s) => ({ name: s.name, status: s.status }));
    // Sessions older than cleanupPeriodDays go while the model answers (started once the first request
    // is surely out, so it never delays it); the run waits for it at the end.
    let cleaned: Promise<void> | undefined;
    const cleanupSoon = setTimeout(() => (cleaned ??= cleanupSessionsDuringRun(setup)), 25);
    const code = await runPrintMode(opts, agent, prompts, messages, io, abort, {
      transcript,
      mcpServers,
      plugins: setup.plugins,
      ...(debug ? { debug } : {}),
    });
    await elicitation?.settled();
    clearTimeout(cleanupSoon);
    await (cleaned ??= cleanupSessionsDuringRun(setup));
    await agent.hooks.sessionEnd?.({ reason: 'other' }, new AbortController().signal);
    for (const n of agent.hooks.drainNotices?.() ?? []) io.err(`wicket: ${n}\n`);
    await stdout.flushed();
    info.flushed = true;
    return stdout.gone ? 141 : code;
  } catch (err) {
    process.stderr.write(`wicket: ${err instanceof FatalError ? err.message : `unexpected error: ${errorMessage(err)}`}\n`);
    return 1;
  } finally {
    stopWatching();
    await closeMcp();
    await stopLsp();
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

async function runConfigCommand(args: string[]): Promise<number> {
  const { runConfig } = await import('./config-command.js');
  return runConfig(args);
}
