/**
 * The command line: parse flags, pick the mode, run it, return the exit code. The only place that
 * touches argv, stdin, signals and exit codes.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { CommanderError } from 'commander';
import { expandSlashPrompt, grantAllowedTools } from '../commands/custom-commands.js';
import { inlineBashRunner } from '../commands/inline-shell.js';
import type { AgentOptions } from '../core/agent-options.js';
import { unansweredToolUses } from '../core/conversation.js';
import { FatalError, errorMessage } from '../core/errors.js';
import { loadedOnDemand } from '../core/import-module.js';
import type { GitStatus } from '../core/git-status.js';
import type { ContentBlock } from '../core/events.js';
import { randomUuid } from '../core/ids.js';
import { createWorktree, finishWorktree, startsFresh, worktreeMissing, type Worktree } from '../core/git-worktree.js';
import { resolveModel } from '../core/models.js';
import type { HookLifecycleEvent } from '../hooks/types.js';
import { loadResumed, openTranscript } from '../session/resume.js';
import { McpConfigError } from '../mcp/config.js';
import { elicitationFlow, type ElicitationHandler } from '../mcp/elicitation.js';
import type { McpServers } from '../mcp/servers.js';
import { followMcpTools, mcpProblems, mcpServersFor, useMcpTools } from './mcp-setup.js';
import { withInitialPrompt } from './main-agent.js';
import { buildProgram, normalizeOptions, UsageError, type CliOptions } from './options.js';
import { permissionPromptTool } from './permission-prompt-tool.js';
import { debugLog } from './debug-log.js';
import { watchSettingsSoon } from './settings-reload.js';
import { openSession } from './session-open.js';
import { printModeAskUser, runPrintMode } from './print-mode.js';
import { sessionSettings, setupSession, type Setup } from './session-setup.js';
import { readStdin, stdinIsTerminal, stdinLines } from './stdin.js';
import { StdoutWriter } from './stdout.js';

export interface MainInfo {
  version: string;
  /** Set when the run went to the interactive app. */
  interactive?: boolean;
  /** Writes the main bundle's code cache now, when it lacks this run's code (the entry's). */
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
  let opts: CliOptions;
  try {
    const program = buildProgram(info.version);
    program.parse(argv, { from: 'user' });
    opts = normalizeOptions(program.opts(), program.args[0], (f) => readFileSync(f, 'utf8'));
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return 0;
      process.stderr.write(`wicket: ${err.message.replace(/^error: /, '')}\nRun wicket --help for the flags.\n`);
      return 2;
    }
    process.stderr.write(`wicket: ${errorMessage(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
  if (opts.worktree === undefined) return runMode(opts, info);
  let worktree: Worktree;
  try {
    worktree = await enterWorktree(opts);
  } catch (err) {
    process.stderr.write(`wicket: --worktree: ${errorMessage(err)}\n`);
    return 1;
  }
  // The entry's `git status` was for the folder left behind.
  delete info.git;
  const code = await runMode(opts, info);
  process.stderr.write(`wicket: ${await finishWorktree(worktree).catch((err: unknown) => `the worktree ${worktree.root} could not be checked: ${errorMessage(err)}`)}\n`);
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

/** --worktree [name]: the session works in `.claude/worktrees/<name>` on branch `worktree-<name>`, made (or found) now. */
async function enterWorktree(opts: CliOptions): Promise<Worktree> {
  const name = opts.worktree ?? true;
  const dir = name === true ? `session-${randomUuid().slice(0, 8)}` : name;
  if (!/^[\w.-]+$/.test(dir) || dir.startsWith('.')) throw new Error(`"${dir}" is not a usable name: use letters, digits, ".", "_" and "-"`);
  const missing = await worktreeMissing(process.cwd());
  if (missing) throw new Error(`a worktree needs ${missing}`);
  const settings = sessionSettings(opts, process.env, process.cwd(), process.env.HOME ?? homedir()).merged;
  const wt = await createWorktree(process.cwd(), { dir, branch: `worktree-${dir}`, fresh: startsFresh(settings) });
  process.chdir(wt.cwd);
  return wt;
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
      process.stderr.write(`wicket: ${errorMessage(err)}\n`);
      return 1;
    }
    const home = process.env.HOME ?? homedir();
    stopWatching = watchSettingsSoon(opts, setup, { env: process.env, home, note: (n) => void process.stderr.write(`wicket: ${n}\n`) }, SETTINGS_WATCH_DELAY_MS);
    let mcp: McpServers | undefined;
    let elicitation: ElicitationHandler | undefined;
    try {
      // Nobody can answer a server's request for input here: hooks may, else it is cancelled.
      const hooks = setup.options.hooks;
      elicitation = elicitationFlow({ hooks: () => hooks, note: (n) => void process.stderr.write(`wicket: warning: ${n}\n`) });
      mcp = mcpServersFor(opts, setup, { holdUnapproved: false, elicitation });
    } catch (err) {
      if (!(err instanceof McpConfigError)) throw err;
      process.stderr.write(`wicket: ${err.message}\n`);
      return 1;
    }
    for (const w of setup.loaded.warnings) process.stderr.write(`wicket: warning: ${w}\n`);
    // The run ends once the model is done and no background task it started is still running.
    const agent: AgentOptions = { ...setup.options, askUser: printModeAskUser, signal: abort.signal, allowDefer: true, fallbackModels: fallbackModels(opts, setup), waitForBackground: true };
    // The servers start while the prompt is read; the model sees their tools from the first request.
    const mcpReady = mcp?.start();
    closeMcp = () => mcp?.close();
    // `-p "/mcp__server__prompt args"` needs its server: it waits for the servers to start.
    const servers = mcp;
    const expandMcp = servers
      ? async (text: string) => {
          await mcpReady;
          return servers.expandPrompt(text);
        }
      : undefined;
    const source = await promptSource(opts, setup, agent, expandMcp);
    if (source.error) {
      process.stderr.write(`wicket: ${source.error}\n`);
      return 1;
    }
    const { messages, marks } = loadResumed(setup.resumeFile, opts, setup.sessionsDir, true);
    // A session resumed on a call a hook deferred needs no prompt: the call runs, then the model goes on.
    const prompts = source.prompts ?? (unansweredToolUses(messages).length ? onePrompt('') : undefined);
    // A custom command's allowed-tools are allow rules for the run it starts.
    grantAllowedTools(agent.permission.rules, source.allowedTools);
    if (!prompts) {
      process.stderr.write('wicket: no prompt: pass one with -p "…" or on stdin\n');
      return 2;
    }
    const transcript = opts.persistSession ? openTranscript(setup, messages, opts.name, marks) : undefined;
    const io = { out: (s: string) => stdout.write(s), err: (s: string) => void process.stderr.write(s) };
    if (mcp) {
      await mcpReady;
      useMcpTools(agent, mcp, opts.tools);
      followMcpTools(agent, mcp, opts.tools);
      for (const p of mcpProblems(mcp, 'print')) process.stderr.write(`wicket: warning: ${p}\n`);
    }
    if (opts.permissionPromptTool) {
      if (!agent.tools.some((tool) => tool.name === opts.permissionPromptTool)) {
        process.stderr.write(`wicket: --permission-prompt-tool: there is no MCP tool ${opts.permissionPromptTool} (its server must be in .mcp.json or --mcp-config, and connected)\n`);
        return 1;
      }
      agent.askUser = permissionPromptTool(opts.permissionPromptTool, () => agent.tools);
    }
    const opened = await openSession(setup, opts, messages, abort.signal);
    for (const w of opened.warnings) process.stderr.write(`wicket: warning: ${w}\n`);
    if (opened.title) transcript?.name(opened.title);
    const mcpServers = mcp?.list().map((s) => ({ name: s.name, status: s.status }));
    const code = await runPrintMode(opts, agent, prompts, messages, io, abort, { transcript, mcpServers, plugins: setup.plugins, ...(debug ? { debug } : {}) });
    await elicitation?.settled();
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
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

interface PromptSource {
  prompts?: AsyncIterable<string | ContentBlock[]>;
  /** Why a custom command could not be expanded (its inline shell was refused). */
  error?: string;
  /** The custom command's allowed-tools. */
  allowedTools: readonly string[];
}

/** Where prompts come from: the argument, stdin text (appended as context), or stream-json lines. */
async function promptSource(opts: CliOptions, setup: Setup, agent: AgentOptions, expandMcp?: McpServers['expandPrompt']): Promise<PromptSource> {
  if (opts.inputFormat === 'stream-json') return { prompts: withFirst(setup.agent?.initialPrompt, stdinLines()), allowedTools: [] };
  const piped = !stdinIsTerminal() ? await readStdin({ waitForFirstByteMs: opts.prompt ? 250 : undefined }) : '';
  // --agent: its initialPrompt comes first (a slash command there still runs).
  const given = withInitialPrompt(setup.agent, opts.prompt);
  // `-p "/name args"` runs the custom command `name`; piped input still follows as context.
  let prompt: string | undefined;
  let allowedTools: readonly string[] = [];
  const mcpPrompt = given?.startsWith('/mcp__') && expandMcp && !opts.disableSlashCommands ? await expandMcp(given) : undefined;
  if (mcpPrompt && !mcpPrompt.ok) return { error: mcpPrompt.message, allowedTools };
  if (mcpPrompt) prompt = mcpPrompt.text;
  else if (given && opts.disableSlashCommands) prompt = given;
  else if (given) {
    const ctx = { projectDir: setup.cwd, sessionId: setup.options.sessionId };
    const expanded = await expandSlashPrompt(given, { projectRoot: setup.cwd, configDir: setup.configDir }, ctx, inlineBashRunner(agent));
    if (!expanded.ok) return { error: expanded.message, allowedTools };
    ({ text: prompt, allowedTools } = expanded);
  }
  const text = [prompt, piped.trim() ? piped : undefined].filter(Boolean).join('\n\n');
  if (!text.trim()) return { allowedTools };
  return { prompts: onePrompt(text), allowedTools };
}

async function* onePrompt(text: string): AsyncIterable<string> {
  yield text;
}

/** stream-json input with --agent: its initialPrompt is the first turn. */
async function* withFirst<T>(first: string | undefined, rest: AsyncIterable<T>): AsyncIterable<T | string> {
  if (first) yield first;
  yield* rest;
}

/** --fallback-model (comma separated), else settings fallbackModel: where an overloaded model's requests go. */
function fallbackModels(opts: CliOptions, setup: Setup): string[] {
  const raw = opts.fallbackModel ?? (typeof setup.loaded.merged.fallbackModel === 'string' ? setup.loaded.merged.fallbackModel : '');
  return raw.split(',').map((m) => resolveModel(m.trim())).filter((m): m is string => Boolean(m));
}

async function runConfigCommand(args: string[]): Promise<number> {
  const { runConfig } = await import('./config-command.js');
  return runConfig(args);
}
