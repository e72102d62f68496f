/**
 * The interactive app: the finished transcript (<Static>), the live area, the permission prompt or
 * the prompt editor, and the status line. Keys that act on the whole app live here: Esc interrupts,
 * Ctrl-C clears (twice: exit), Ctrl-D on an empty line exits, Shift+Tab cycles the mode.
 */
import { Box, Text, useApp } from 'ink';
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AgentOptions } from '../core/agent-options.js';
import type { AgentEvent, ApiMessage } from '../base/events.js';
import type { PromptMark } from '../base/prompt-marks.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { LoadedSettings } from '../settings/load.js';
import type { SlashCommand } from './commands/index.js';
import { hintsFor } from './completions.js';
import { HistoryCursor } from './history.js';
import { KeyRouterContext, useKeyRouter } from './key-router.js';
import { useAgent } from './hooks/use-agent.js';
import { useElicitations, useMcpApprovals, useMcpPromptCommands, useMcpResources } from './hooks/use-mcp.js';
import { useStatusCommand } from './hooks/use-status-command.js';
import { useAppActions } from './hooks/use-app-actions.js';
import { useAppKeys } from './hooks/use-app-keys.js';
import { useKeymap } from './hooks/use-keymap.js';
import { useSubmit } from './hooks/use-submit.js';
import { useMemory } from './hooks/use-memory.js';
import { useNotifications } from './hooks/use-notifications.js';
import { type SessionSwitch, useSessionSwitch } from './hooks/use-session-switch.js';
import type { PluginSession } from './plugin-session.js';
import { currentBranch } from '../session/paths.js';
import { listSessions, type SessionPlaces, type SessionSummary } from '../session/session-list.js';
import { renameSavedSession } from '../session/session-rename.js';
import { previewLines } from './session-rows.js';
import { useTerminalSize } from './hooks/use-terminal-size.js';
import * as B from './input-buffer.js';
import { LiveArea } from './LiveArea.js';
import type { ElicitationQueue } from './elicitation-queue.js';
import type { McpSession } from './mcp-session.js';
import { ruleReach } from './rule-reach.js';
import { previewRestore, rewinderFor } from './rewind-preview.js';
import { statusLineSetting } from './status-command.js';
import { StatusLine } from './StatusLine.js';
import { makeTheme, type Theme } from './theme.js';
import { ActiveInput } from './ActiveInput.js';
import { usePreferences } from './hooks/use-preferences.js';
import { useConfigScreen } from './hooks/use-config-screen.js';
import type { PickerSpec } from './hooks/use-submit.js';
import type { VimMode } from './vim.js';
import { Transcript } from './Transcript.js';
import type { NewItem } from './types.js';
import { loadAgentDefinitions } from '../tools/agent/definitions.js';
import { agentColorsOf, CustomStatus, Hints, useInitialPrompt, usePluginCommands } from './app-parts.js';
import { ViewContext } from './view-context.js';

export interface AppProps {
  readonly base: Omit<AgentOptions, 'signal' | 'askUser'>;
  readonly loaded: LoadedSettings;
  readonly cwd: string;
  readonly configDir: string;
  readonly version: string;
  readonly commands: SlashCommand[];
  readonly allowBypass: boolean;
  readonly transcript?: TranscriptWriter;
  /** Told every event of every run (--debug's log). */
  readonly onEvent?: (ev: AgentEvent) => void;
  readonly initialMessages?: ApiMessage[];
  /** The rewind points of a resumed session. */
  readonly initialMarks?: PromptMark[];
  readonly initialPrompt?: string;
  readonly history?: string[];
  readonly historyFile?: string;
  /** Lines for the banner (settings warnings, resumed session). */
  readonly notes?: string[];
  /** Finished items shown under the banner (a resumed conversation). */
  readonly initialItems?: NewItem[];
  readonly theme?: Theme;
  readonly frameMs?: number;
  /** The session's MCP servers, when it has any. */
  readonly mcp?: McpSession;
  /** MCP servers' requests for the person's input, shown as a dialog. */
  readonly elicitations?: ElicitationQueue;
  /** Opens a URL an MCP server sends the person to (the browser, by default). */
  readonly openUrl?: (url: string) => void;
  /** Lines that arrive while the app runs (settings reloaded), shown as info. */
  readonly infoFeed?: { subscribe(show: (text: string) => void): () => void };
  /** Where saved sessions are, for /resume. */
  readonly places?: SessionPlaces;
  /** /resume and /branch: the app ends and runs again on this session. */
  readonly onSwitch?: (to: SessionSwitch) => void;
  /** The session's plugins: the /plugin screen and /reload-plugins. */
  readonly plugins?: PluginSession;
}

/** Rows of the bottom part and of the live area: the live frame must stay shorter than the terminal
 * (Ink repaints the whole screen once it is not). */
export function frameBudget(rows: number, promptLines: number, hints: number, dialogOpen: boolean): { liveRows: number; dialogRows: number } {
  const dialogRows = Math.min(rows - 6, 18);
  const bottom = 1 + (dialogOpen ? dialogRows : Math.min(8, promptLines) + 2 + hints) + 2;
  const liveRows = Math.max(3, Math.min(rows - bottom - 3, Math.floor(rows / 2)));
  return { liveRows: dialogOpen ? Math.min(liveRows, 3) : liveRows, dialogRows };
}

export function App(props: AppProps): React.ReactElement {
  const { base } = props;
  // What a "don't ask again" rule would have allowed among this project's past calls, and what it never would (its home and settings as the session's).
  const pastCalls = useCallback(
    (toolName: string, rules: readonly string[]) => ruleReach({ cwd: base.projectRoot, env: { ...base.env, HOME: base.homeDir } }, toolName, rules),
    [base],
  );
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const agent = useAgent({
    base,
    transcript: props.transcript,
    onEvent: props.onEvent,
    initialMessages: props.initialMessages,
    initialMarks: props.initialMarks,
    frameMs: props.frameMs,
    init: (view) => {
      view.add({ kind: 'banner', model: base.model, cwd: props.cwd, mode: base.permission.mode, version: props.version, notes: props.notes ?? [] });
      for (const item of props.initialItems ?? []) view.add(item);
    },
    ready: props.mcp ? () => props.mcp!.ready() : undefined,
  });
  const approval = useMcpApprovals(props.mcp, agent.info);
  const elicit = useElicitations(props.elicitations, agent.info, props.openUrl ?? (() => undefined));
  useEffect(() => props.infoFeed?.subscribe((text) => agent.info(text)), [props.infoFeed]);
  const mcpPrompts = useMcpPromptCommands(props.mcp);
  const baseCommands = usePluginCommands(props.commands, props.plugins);
  const commands = useMemo(() => (mcpPrompts.length ? [...baseCommands, ...mcpPrompts] : baseCommands), [baseCommands, mcpPrompts]);
  const resources = useMcpResources(props.mcp);
  const statusSetting = useMemo(() => statusLineSetting(props.loaded.merged), [props.loaded]);
  const statusRows = useStatusCommand(statusSetting, {
    base,
    version: props.version,
    totals: agent.view.totals,
    transcriptPath: props.transcript?.file,
    columns,
    rows,
    triggers: [agent.items.length, agent.status.working, base.permission.mode],
  });
  const [buffer, setBuffer] = useState<B.Buffer>(B.emptyBuffer);
  const [staticKey, setStaticKey] = useState(0);
  const history = useRef(new HistoryCursor([...(props.history ?? [])])).current;
  const quit = useCallback(() => {
    agent.interrupt();
    exit();
  }, [agent, exit]);
  const [searching, setSearching] = useState(false);
  const [rewinding, setRewinding] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const hints = useMemo(() => hintsFor(buffer.text, commands, resources), [commands, resources, buffer.text]);
  const openRewind = () => {
    if (agent.busy()) agent.info('Interrupt the current run (esc) before rewinding.', 'warning');
    else if (agent.prompts().length) setRewinding(true);
    else agent.info('Nothing to rewind yet.');
  };
  const home = base.homeDir;
  const configDirOverride = base.env.CLAUDE_CONFIG_DIR || undefined;
  const { prefs, control: preferences } = usePreferences(base.settings, { home, configDir: configDirOverride }, (w) => agent.info(w, 'warning'));
  const [picker, setPicker] = useState<PickerSpec | undefined>(undefined);
  const [configOpen, setConfigOpen] = useState(false);
  const [vimMode, setVimMode] = useState<VimMode>('insert');
  const memory = useMemory(base, props.cwd, props.configDir, agent.info);
  const sessions = useSessionSwitch({ places: props.places, transcript: props.transcript, agent, onSwitch: props.onSwitch, quit });
  const submit = useSubmit({
    ...props,
    commands,
    agent,
    history,
    setBuffer,
    quit,
    openRewind,
    openResume: sessions.openResume,
    branch: sessions.branch,
    ...(props.plugins ? { openPlugins: () => setBrowsing(true) } : {}),
    onCleared: () => setStaticKey((k) => k + 1),
    memory,
    openPicker: setPicker,
    openConfig: () => setConfigOpen(true),
    preferences,
    home,
    ...(configDirOverride ? { configDirOverride } : {}),
  });
  const config = useConfigScreen(configOpen, () => setConfigOpen(false), { base, preferences, home, configDirOverride, info: agent.info });
  const dialogOpen =
    agent.asks.length > 0 || approval !== undefined || elicit !== undefined || memory.pending !== undefined || picker !== undefined || configOpen;
  const screenOpen = rewinding || sessions.picking || browsing;
  // An interrupt ends the run's calls, and with them what their servers asked.
  const interrupt = useCallback(() => {
    props.elicitations?.cancelAll();
    agent.interrupt();
  }, [agent, props.elicitations]);
  const keymap = useKeymap(props.configDir, (w) => agent.info(w, 'warning'));
  const actions = useAppActions({
    env: base.env,
    cwd: props.cwd,
    buffer,
    setBuffer,
    history,
    info: agent.info,
    redraw: useCallback(() => setStaticKey((k) => k + 1), []),
  });
  const { notice, onKey } = useAppKeys({
    ...actions,
    keymap,
    buffer,
    setBuffer,
    dialogOpen,
    busy: agent.busy,
    interrupt,
    quit,
    hints,
    permission: base.permission,
    allowBypass: props.allowBypass,
    searching: searching || screenOpen,
    openSearch: () => setSearching(true),
    openRewind,
    submit,
    vimInsert: prefs.editorMode === 'vim' && vimMode === 'insert',
    openModelPicker: () => submit(B.fromText('/model')),
  });
  useInitialPrompt(props.initialPrompt, submit);
  useNotifications({
    working: agent.status.working,
    asks: agent.asks.length,
    channel: prefs.preferredNotifChannel,
    env: base.env,
    hooks: base.hooks,
    home: base.homeDir,
  });

  const onHistory = (dir: -1 | 1, cur: B.Buffer): B.Buffer | undefined => {
    const entry = dir === -1 ? history.up(cur.text) : history.down();
    return entry === undefined ? undefined : B.fromText(entry);
  };
  const { liveRows, dialogRows } = frameBudget(rows, buffer.text.split('\n').length, hints.length + statusRows.length, dialogOpen || screenOpen);
  const agentColors = useMemo(() => agentColorsOf(loadAgentDefinitions(props.cwd, props.configDir)), [props.cwd, props.configDir]);
  const verbose = actions.transcript || prefs.verbose;
  const theme = useMemo(() => props.theme ?? makeTheme(process.env, prefs.theme), [props.theme, prefs.theme]);
  const viewInfo = useMemo(() => ({ columns, rows, cwd: props.cwd, theme, agentColors, verbose }), [columns, rows, props.cwd, theme, agentColors, verbose]);
  const ask = agent.asks[0];
  const keys = useKeyRouter(onKey);

  return (
    <KeyRouterContext.Provider value={keys}>
      <ViewContext.Provider value={viewInfo}>
        <Transcript key={staticKey} items={agent.items} />
        {verbose ? (
          <Box marginTop={1}>
            <Text dimColor>Showing the full transcript · ctrl+o or esc to go back</Text>
          </Box>
        ) : null}
        {verbose ? null : <LiveArea live={agent.live} maxRows={liveRows} />}
        {verbose ? null : (
          <Box flexDirection="column" marginTop={1}>
            <ActiveInput
              {...(approval ? { approval } : {})}
              {...(ask ? { ask } : {})}
              waiting={agent.asks.length - 1}
              answer={agent.answer}
              pastCalls={pastCalls}
              {...(elicit ? { elicit } : {})}
              {...(memory.pending ? { memory: { note: memory.pending.note, targets: memory.pending.targets, onChoose: memory.choose } } : {})}
              {...(picker ? { picker } : {})}
              closePicker={() => setPicker(undefined)}
              {...(config ? { config } : {})}
              {...(rewinding
                ? {
                    rewind: {
                      prompts: agent.prompts(),
                      preview: (i: number) => previewRestore(rewinderFor(base), agent.prompts()[i]?.checkpoint, base.state.cwd),
                      maxRows: Math.max(6, dialogRows - 2),
                      onChoose: (i: number, choice: { code: boolean; conversation: boolean }) => {
                        setRewinding(false);
                        void agent.rewind(i, choice).then((text) => {
                          if (text !== undefined) setBuffer(B.fromText(text));
                        });
                      },
                      onCancel: () => setRewinding(false),
                    },
                  }
                : {})}
              {...(sessions.picking && props.places
                ? {
                    sessions: {
                      load: (all: boolean) => listSessions(props.places!, all),
                      preview: previewLines,
                      cwd: props.cwd,
                      current: base.sessionId,
                      branch: currentBranch(props.cwd),
                      rename: (s: SessionSummary, title: string) => void renameSavedSession(s.file, s.id, title),
                      onChoose: sessions.choose,
                      onCancel: sessions.cancel,
                      maxRows: Math.max(8, dialogRows),
                    },
                  }
                : {})}
              {...(browsing && props.plugins
                ? {
                    plugins: {
                      ctx: props.plugins.manageContext,
                      active: () => props.plugins!.active(),
                      maxRows: dialogRows,
                      onClose: (changed: boolean) => {
                        setBrowsing(false);
                        if (changed) agent.info('Plugins changed: /reload-plugins brings the changes into this session.');
                      },
                    },
                  }
                : {})}
              {...(searching
                ? {
                    search: {
                      entries: history.all,
                      onDone: (entry: string | undefined) => {
                        if (entry !== undefined) setBuffer(B.fromText(entry));
                        setSearching(false);
                      },
                    },
                  }
                : {})}
              prompt={{
                value: buffer,
                onChange: setBuffer,
                onSubmit: submit,
                onHistory,
                attachPasted: actions.attachPath,
                vim: prefs.editorMode === 'vim',
                onVimMode: setVimMode,
                placeholder: agent.status.working ? 'Type to queue a message' : 'Ask wicket to do something · /help for commands',
              }}
              dialogRows={dialogRows}
            />
            {!ask && hints.length ? <Hints hints={hints} /> : null}
            {statusRows.length ? <CustomStatus rows={statusRows} padding={statusSetting?.padding ?? 0} /> : null}
            <StatusLine
              status={agent.status}
              model={base.model}
              mode={base.permission.mode}
              notice={notice ?? (prefs.editorMode === 'vim' ? `-- ${vimMode.toUpperCase()} --` : undefined)}
              queued={agent.queued}
            />
          </Box>
        )}
      </ViewContext.Provider>
    </KeyRouterContext.Provider>
  );
}
