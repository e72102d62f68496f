/**
 * Starts the interactive app: session set-up, resumed messages, history, commands, then Ink.
 * Loaded only through a dynamic import from cli/interactive.ts, so print mode never loads React.
 */
import { render } from 'ink';
import { appendFileSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { SAFE_MODE_NOTE } from '../settings/safe-mode.js';
import type { CliOptions } from '../core/setup/options.js';
import { withInitialPrompt } from '../core/setup/main-agent.js';
import { flagScopeNotes } from '../core/setup/flag-scope.js';
import { chooseFallbackModels, fallbackLeftOut } from '../core/setup/model-choice.js';
import { mcpServersFor } from '../core/setup/mcp-setup.js';
import { openBrowser } from '../mcp/open-browser.js';
import { sessionSettings, setupSession, type Setup } from '../core/setup/session-setup.js';
import { problemFiles, SettingsUnreadableError } from '../settings/problem.js';
import { errorMessage, FatalError } from '../base/errors.js';
import { debugLog, type DebugLog } from '../core/setup/debug-log.js';
import { watchSettings } from '../core/setup/settings-reload.js';
import { openSession } from '../core/setup/session-open.js';
import type { AppEntry } from '../core/setup/options.js';
import { createHooks } from '../hooks/create.js';
import type { HookLifecycleEvent } from '../hooks/types.js';
import { elicitationFlow, setSessionElicitation } from '../mcp/elicitation.js';
import { loadResumed } from '../session/resume.js';
import type { SavedSession } from '../session/transcript-read.js';
import { cleanupSessions, resumedSessionNotes, sessionTranscript } from '../core/setup/session-files.js';
import { App } from './App.js';
import { pickSession } from './SessionPicker.js';
import { previewLines } from './session-rows.js';
import type { SessionSwitch } from './hooks/use-session-switch.js';
import { currentBranch } from '../session/paths.js';
import { listSessions } from '../session/session-list.js';
import { renameSavedSession } from '../session/session-rename.js';
import { userConfigDir, wicketHomeDir } from '../settings/paths.js';
import { BUILTIN_COMMANDS } from './commands/builtin.js';
import { allCommands } from './commands/index.js';
import { historyFile, loadHistory } from './history.js';
import { preloadMarkdown } from './markdown-text.js';
import { itemsFromMessages } from './resume-items.js';
import { ElicitationQueue } from './elicitation-queue.js';
import { McpSession } from './mcp-session.js';
import { PluginSession } from './plugin-session.js';
import { SetupError } from './SetupError.js';
import { yogaReady } from './lib/yoga-ready.js';
import { askBrokenSettings } from './SettingsErrorDialog.js';
import { askTrust } from './TrustDialog.js';
import { confirmExternalImports } from './external-imports.js';
import { offerProjectPlugins } from './ProjectPluginsDialog.js';
import { isWorkspaceTrusted, saveWorkspaceTrust, trustFolder } from '../settings/trust.js';
import { sinceLastKey } from './key-router.js';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';
/** How long after the first frame the project's first snapshot scan starts (core/snapshots/ warm). */
const WARM_SNAPSHOTS_MS = 400;
/** How long without a key before that scan starts. */
const WARM_IDLE_MS = 1000;

export const runApp: AppEntry = async function runApp(opts, info) {
  await yogaReady;
  const trust = await trustWorkspace();
  if (!trust.yes) return 1;
  if (!(await settingsReadable(opts))) return 2;
  // `-r` without an id: the picker first; leaving it ends here.
  if (opts.resume === true && !(await chooseSession(opts))) return 0;
  let next: CliOptions | undefined = opts;
  let note = trust.note;
  let code = 0;
  while (next) {
    const run = await runSession(next, info, note);
    code = run.code;
    next = run.switchTo && switchedOptions(next, run.switchTo);
    note = run.switchTo?.fork
      ? `A new session holding the conversation of ${path.basename(run.switchTo.file, '.jsonl')}, which stays as it was (/resume finds it).`
      : undefined;
    if (next && process.stdout.isTTY) process.stdout.write('\x1b[2J\x1b[3J\x1b[H');
  }
  return code;
};

/** /resume or /branch ended the app: it runs again on that session (a branch: a new session holding it). */
function switchedOptions(opts: CliOptions, to: SessionSwitch): CliOptions {
  const { sessionId: _id, prompt: _prompt, name: _name, ...rest } = opts;
  return { ...rest, resume: to.file, forkSession: to.fork, continue: false };
}

/** `wicket -r` in the app: the picker of this project's sessions; false when the person left it. */
async function chooseSession(opts: CliOptions): Promise<boolean> {
  const home = process.env.HOME ?? homedir();
  const places = {
    configDir: userConfigDir(home, process.env.CLAUDE_CONFIG_DIR || undefined),
    wicketHome: wicketHomeDir(home, process.env),
    cwd: realpathSync(process.cwd()),
  };
  const choice = await pickSession({
    load: (all) => listSessions(places, all),
    preview: previewLines,
    cwd: places.cwd,
    branch: currentBranch(places.cwd),
    rename: (s, title) => void renameSavedSession(s.file, s.id, title),
    maxRows: Math.max(8, (process.stdout.rows ?? 24) - 2),
  });
  if (!choice) return false;
  opts.resume = choice.session.file;
  opts.forkSession = opts.forkSession || choice.fork;
  return true;
}

async function runSession(
  opts: CliOptions,
  info: { version: string; firstFrame?: () => void },
  trustNote: string | undefined,
): Promise<{ code: number; switchTo?: SessionSwitch }> {
  const pluginNotes = await projectPlugins(opts);
  let setup: Setup;
  let saved: SavedSession;
  let mcp: McpSession | undefined;
  const elicitations = new ElicitationQueue();
  let debug: DebugLog | undefined;
  const debugOn = opts.debug !== undefined || opts.debugFile !== undefined;
  try {
    setup = setupSession(opts, {
      env: process.env,
      hooksFactory: (loaded, i) => createHooks(loaded, i),
      trusted: () => true,
      ...(debugOn ? { onHookEvent: (e: HookLifecycleEvent) => debug?.hook(e) } : {}),
    });
    saved = loadResumed(setup.resumeFile);
    const hooks = setup.options.hooks;
    const elicitation = elicitationFlow({ hooks: () => hooks, ask: elicitations.ask, onComplete: (server, id) => elicitations.completed(server, id) });
    setSessionElicitation(elicitation);
    // Always made in the app: /reload-plugins may bring the first server.
    const servers = mcpServersFor(opts, setup, { holdUnapproved: true, onChange: () => mcp?.changed(), elicitation, always: true });
    mcp = servers && new McpSession(servers, setup.options, setup.cwd, opts.tools);
  } catch (err) {
    return { code: await showSetupError(err) };
  }
  const external = await confirmExternalImports(setup.instructions, setup.cwd);
  if (external.stop) return { code: 0 };
  // A resumed session keeps the instruction files it was given; those changed since come with the next prompt.
  setup.options.instructions?.resumed(saved.instructions);
  const base = setup.options;
  const notes = [...(opts.safeMode ? [SAFE_MODE_NOTE] : []), ...pluginNotes, ...setup.loaded.warnings, ...(trustNote ? [trustNote] : [])];
  notes.push(...(opts.notes ?? []), ...flagScopeNotes(opts, 'interactive'));
  // --fallback-model or settings fallbackModel: where an overloaded model's requests go.
  const fallback = chooseFallbackModels(opts.fallbackModel, setup.loaded.merged);
  if (fallback.models.length) base.fallbackModels = fallback.models;
  notes.push(...fallback.leftOut.map(fallbackLeftOut));
  // --verbose stands over the verbose setting for this session.
  if (opts.verbose) base.settings = { ...base.settings, verbose: true };
  if (external.note) notes.push(external.note);
  if (debugOn) {
    const file = opts.debugFile ?? path.join(base.wicketHome, 'debug', `${base.sessionId}.txt`);
    debug = appDebugLog(opts.debug, file);
    notes.push(`Debug log: ${file}`);
  }
  const { messages, marks } = saved;
  const resumed = itemsFromMessages(messages);
  if (messages.length)
    notes.push(`Resumed a session of ${messages.length} messages${resumed.hidden ? ` (the last ${resumed.items.length} items are shown)` : ''}.`);
  notes.push(...resumedSessionNotes(setup, saved));
  // Sessions older than cleanupPeriodDays go once the app is on screen.
  const started = setup;
  setTimeout(() => cleanupSessions(started), 300).unref();
  const opened = await openSession(setup, opts, messages, new AbortController().signal);
  notes.push(...opened.warnings);
  const transcript = opts.persistSession ? sessionTranscript(setup, saved, 'cli', opened.title ?? opts.name) : undefined;
  const infoFeed = new InfoFeed();
  const stopWatching = watchSettings(opts, setup, {
    env: process.env,
    home: process.env.HOME ?? homedir(),
    trusted: () => true,
    note: (n) => infoFeed.show(n),
  });
  const hist = historyFile(base.wicketHome, setup.cwd);
  let switchTo: SessionSwitch | undefined;
  const listCommands = () => (opts.disableSlashCommands ? BUILTIN_COMMANDS : allCommands(setup.cwd, setup.configDir));
  const plugins = new PluginSession(opts, setup, process.env, listCommands, mcp);
  const app = (
    <App
      base={base}
      loaded={setup.loaded}
      cwd={setup.cwd}
      configDir={setup.configDir}
      version={info.version}
      commands={listCommands()}
      allowBypass={opts.allowDangerouslySkipPermissions || base.permission.mode === 'bypassPermissions'}
      transcript={transcript}
      onEvent={debug ? (ev) => debug.event(ev) : undefined}
      initialMessages={messages}
      initialMarks={marks}
      initialPrompt={withInitialPrompt(setup.agent, opts.prompt)}
      history={loadHistory(hist)}
      historyFile={hist}
      notes={notes}
      initialItems={resumed.items}
      mcp={mcp}
      elicitations={elicitations}
      openUrl={(url) => openBrowser(url, base.env)}
      infoFeed={infoFeed}
      places={setup.places}
      onSwitch={(to) => {
        switchTo = to;
      }}
      plugins={plugins}
    />
  );
  // Resumed items are written once, at the first frame: render them as Markdown.
  if (resumed.items.length) await preloadMarkdown().catch(() => undefined);
  const out = process.stdout;
  if (out.isTTY) out.write(BRACKETED_PASTE_ON);
  // Kitty's keyboard protocol (kitty, WezTerm, ghostty, once the terminal confirms it) tells Shift+Enter from Enter.
  const instance = render(app, { exitOnCtrlC: false, maxFps: 30, kittyKeyboard: { mode: 'auto' } });
  // What the first frame does not need starts after it: MCP servers (their processes), Markdown.
  setImmediate(() => {
    info.firstFrame?.();
    mcp?.start();
  });
  // Once the person pauses (no key for a second), git's first full scan of the project is made and
  // the watch armed (at a lower priority than the app), so that the first prompt's snapshot is cheap.
  // Not while keys come in: each process the scan starts holds the app's thread while it forks, and
  // keys read late arrive together.
  const warmWhenIdle = () => {
    if (sinceLastKey() < WARM_IDLE_MS) return void setTimeout(warmWhenIdle, WARM_IDLE_MS - sinceLastKey()).unref();
    void base.snapshots?.warm();
  };
  setTimeout(warmWhenIdle, WARM_SNAPSHOTS_MS).unref();
  setTimeout(() => void preloadMarkdown().catch(() => undefined), 50);
  try {
    await instance.waitUntilExit();
  } finally {
    if (out.isTTY) out.write(BRACKETED_PASTE_OFF);
  }
  stopWatching();
  await base.hooks.sessionEnd?.({ reason: switchTo ? 'resume' : 'prompt_input_exit' }).catch(() => undefined);
  await mcp?.close();
  await base.lsp?.stop();
  if (transcript && !switchTo) out.write(`\nResume this session with: wicket --resume ${base.sessionId}\n`);
  return { code: 0, ...(switchTo ? { switchTo } : {}) };
}

/** Lines for the app from outside a run; those sent before it listens wait for it. */
class InfoFeed {
  private listener: ((text: string) => void) | undefined;
  private readonly waiting: string[] = [];

  show(text: string): void {
    if (this.listener) this.listener(text);
    else this.waiting.push(text);
  }

  subscribe(show: (text: string) => void): () => void {
    this.listener = show;
    for (const t of this.waiting.splice(0)) show(t);
    return () => {
      if (this.listener === show) this.listener = undefined;
    };
  }
}

/** --debug in the app: the terminal is the app's, so the lines go to a file (--debug-file, else one per session). */
function appDebugLog(filter: string | true | undefined, file: string): DebugLog | undefined {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, ''); // the file named under the banner exists from the start
  } catch {
    // debugLog's writes fail quietly too: a log that cannot be written never stops the session
  }
  return debugLog({ debug: filter ?? true, debugFile: file }, () => undefined);
}

/** Asks once per folder (settings/trust.ts) before anything of the project's is loaded. */
async function trustWorkspace(): Promise<{ yes: boolean; note?: string }> {
  const where = { cwd: realpathSync(process.cwd()), home: process.env.HOME ?? homedir(), configDir: process.env.CLAUDE_CONFIG_DIR || undefined };
  if (isWorkspaceTrusted(where)) return { yes: true };
  const folder = trustFolder(where.cwd);
  if (!(await askTrust(folder, folder === path.resolve(where.home)))) return { yes: false };
  try {
    await saveWorkspaceTrust(where);
    return { yes: true };
  } catch (err) {
    return { yes: true, note: `This folder is trusted for this session only: ${errorMessage(err)}` };
  }
}

/**
 * Before anything starts: a settings file that cannot be read is shown with its place and problem,
 * and the session goes on without it only when the person chooses so (SettingsErrorDialog); the
 * choice lasts for this session, and the file loads again once fixed (settings-reload.ts).
 */
async function settingsReadable(opts: CliOptions): Promise<boolean> {
  const cwd = realpathSync(process.cwd());
  const home = process.env.HOME ?? homedir();
  for (;;) {
    try {
      sessionSettings(opts, process.env, cwd, home, () => true);
      return true;
    } catch (err) {
      // Any other failure is set-up's to report, with its own screen.
      if (!(err instanceof SettingsUnreadableError)) return true;
      if (!(await askBrokenSettings(err.problems))) return false;
      opts.withoutSettings = [...(opts.withoutSettings ?? []), ...problemFiles(err.problems)];
    }
  }
}

/** In a trusted folder (the app's are), the plugins the settings name and this machine lacks are offered before the session starts. */
async function projectPlugins(opts: CliOptions): Promise<string[]> {
  if (opts.bare || opts.safeMode) return [];
  const env = process.env;
  const ctx = { cwd: realpathSync(process.cwd()), home: env.HOME ?? homedir(), ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}), env };
  try {
    const merged = sessionSettings(opts, env, ctx.cwd, ctx.home, () => true).merged;
    return await offerProjectPlugins(ctx, merged, wicketHomeDir(ctx.home, env));
  } catch (err) {
    return [`The plugins the settings name could not be added: ${errorMessage(err)}`];
  }
}

async function showSetupError(err: unknown): Promise<number> {
  const code = err instanceof FatalError ? err.code : undefined;
  const instance = render(<SetupError message={errorMessage(err)} code={code} />, { exitOnCtrlC: true, patchConsole: false });
  instance.unmount();
  await instance.waitUntilExit().catch(() => undefined);
  return 1;
}
