/**
 * The interactive app: the finished transcript (<Static>), the live area, the permission prompt or
 * the prompt editor, and the status line. Keys that act on the whole app live here: Esc interrupts,
 * Ctrl-C clears (twice: exit), Ctrl-D on an empty line exits, Shift+Tab cycles the mode.
 */
import { Box, Text, useApp, useInput, useStdout } from 'ink';
import React, { useCallback, useMemo, useRef, useState } from 'react';
import type { AgentOptions } from '../core/agent-options.js';
import type { ApiMessage } from '../core/events.js';
import { nextMode } from '../permissions/modes.js';
import type { TranscriptWriter } from '../session/transcript.js';
import type { LoadedSettings } from '../settings/load.js';
import { findCommand, matchCommands, parseSlash, runCommand, type CommandResult, type SessionControl, type SlashCommand } from './commands/index.js';
import { appendHistory, HistoryCursor } from './history.js';
import { useAgent } from './hooks/use-agent.js';
import { useTerminalSize } from './hooks/use-terminal-size.js';
import * as B from './input-buffer.js';
import { LiveArea } from './LiveArea.js';
import { PermissionDialog } from './PermissionDialog.js';
import { PromptInput } from './PromptInput.js';
import { StatusLine } from './StatusLine.js';
import { theme as defaultTheme, type Theme } from './theme.js';
import { Transcript } from './Transcript.js';
import type { NewItem } from './types.js';
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
  readonly initialMessages?: ApiMessage[];
  readonly initialPrompt?: string;
  readonly history?: string[];
  readonly historyFile?: string;
  /** Lines for the banner (settings warnings, resumed session). */
  readonly notes?: string[];
  /** Finished items shown under the banner (a resumed conversation). */
  readonly initialItems?: NewItem[];
  readonly theme?: Theme;
  readonly frameMs?: number;
}

const DOUBLE_PRESS_MS = 2000;

export function App(props: AppProps): React.ReactElement {
  const { base, theme = defaultTheme } = props;
  const { exit } = useApp();
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize();
  const agent = useAgent({
    base,
    transcript: props.transcript,
    initialMessages: props.initialMessages,
    frameMs: props.frameMs,
    init: (view) => {
      view.add({ kind: 'banner', model: base.model, cwd: props.cwd, mode: base.permission.mode, version: props.version, notes: props.notes ?? [] });
      for (const item of props.initialItems ?? []) view.add(item);
    },
  });
  const [buffer, setBuffer] = useState<B.Buffer>(B.emptyBuffer);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [, setModeTick] = useState(0);
  const [staticKey, setStaticKey] = useState(0);
  const history = useRef(new HistoryCursor([...(props.history ?? [])])).current;
  const lastPress = useRef<{ key: string; at: number }>({ key: '', at: 0 });
  const started = useRef(false);

  const flash = useCallback((text: string | undefined) => {
    setNotice(text);
    if (text) setTimeout(() => setNotice((n) => (n === text ? undefined : n)), DOUBLE_PRESS_MS).unref?.();
  }, []);
  const pressedTwice = (key: string) => {
    const now = Date.now();
    const twice = lastPress.current.key === key && now - lastPress.current.at < DOUBLE_PRESS_MS;
    lastPress.current = { key: twice ? '' : key, at: now };
    return twice;
  };
  const quit = useCallback(() => {
    agent.interrupt();
    exit();
  }, [agent, exit]);

  const session = (): SessionControl => ({
    options: base,
    loaded: props.loaded,
    cwd: props.cwd,
    configDir: props.configDir,
    totals: agent.view.totals,
    traces: agent.view.traces,
    commands: props.commands,
    ...(props.transcript ? { transcriptPath: props.transcript.file } : {}),
    messageCount: agent.messages.length,
  });

  const submitText = (raw: B.Buffer) => {
    const text = B.expand(raw).trim();
    if (!text) return;
    history.push(text);
    if (props.historyFile) appendHistory(props.historyFile, text);
    setBuffer(B.emptyBuffer);
    if (text.startsWith('/') && handleSlash(text)) return;
    agent.submit(text, raw.text.trim());
  };

  /** True when the text was a command (or an unknown one); false to send it as a prompt. */
  const handleSlash = (text: string): boolean => {
    const name = parseSlash(text)?.name ?? '';
    if (!findCommand(props.commands, name)) {
      if (name.includes('/')) return false;
      agent.info(`Unknown command /${name}. /help lists the commands.`, 'warning');
      return true;
    }
    void runCommand(props.commands, text, session()).then((result) => result && applyResult(text, result));
    return true;
  };

  const applyResult = (text: string, result: CommandResult) => {
    if (result.kind === 'prompt') agent.submit(result.text, text);
    else if (result.kind === 'exit') quit();
    else if (result.kind === 'clear') {
      if (agent.status.working) agent.info('Interrupt the current run (esc) before /clear.', 'warning');
      else {
        agent.clear();
        stdout.write('\x1b[2J\x1b[3J\x1b[H');
        setStaticKey((k) => k + 1);
      }
    } else {
      agent.view.add({ kind: 'user', text });
      agent.info(result.text, result.tone ?? 'info');
    }
  };

  const dialogOpen = agent.asks.length > 0;
  // Keys can arrive before React re-subscribes the handler: read the current state through a ref.
  const now = useRef({ buffer, dialogOpen, working: agent.status.working });
  now.current = { buffer, dialogOpen, working: agent.status.working };
  useInput((input, key) => {
    const { buffer: buf, dialogOpen: asking, working } = now.current;
    if (key.ctrl && input === 'c') {
      if (buf.text && !asking) return setBuffer(B.emptyBuffer);
      if (pressedTwice('ctrl-c')) return quit();
      if (working) agent.interrupt();
      return flash('Press Ctrl-C again to exit');
    }
    if (key.ctrl && input === 'd' && !buf.text && !asking) return quit();
    if (key.tab && key.shift) {
      base.permission.mode = nextMode(base.permission.mode, { allowBypass: props.allowBypass });
      return setModeTick((t) => t + 1);
    }
    if (asking) return;
    if (key.escape) {
      if (working) return agent.interrupt();
      if (buf.text && pressedTwice('esc')) setBuffer(B.emptyBuffer);
      return;
    }
    if (key.tab && !key.shift) {
      const match = matchCommands(props.commands, buf.text)[0];
      if (match) setBuffer(B.fromText(`/${match.name} `));
    }
  });

  if (!started.current) {
    started.current = true;
    if (props.initialPrompt?.trim()) queueMicrotask(() => submitText(B.fromText(props.initialPrompt!)));
  }

  const onHistory = (dir: -1 | 1, cur: B.Buffer): B.Buffer | undefined => {
    const entry = dir === -1 ? history.up(cur.text) : history.down();
    return entry === undefined ? undefined : B.fromText(entry);
  };

  const hints = useMemo(() => matchCommands(props.commands, buffer.text).slice(0, 6), [props.commands, buffer.text]);
  // The live frame must stay shorter than the terminal: Ink repaints everything once it is not.
  const promptRows = Math.min(8, buffer.text.split('\n').length) + 2;
  const bottomRows = 1 + (dialogOpen ? Math.min(rows - 6, 18) : promptRows + hints.length) + 2;
  const liveRows = Math.max(3, Math.min(rows - bottomRows - 3, Math.floor(rows / 2)));
  const viewInfo = useMemo(() => ({ columns, rows, cwd: props.cwd, theme }), [columns, rows, props.cwd, theme]);
  const ask = agent.asks[0];

  return (
    <ViewContext.Provider value={viewInfo}>
      <Transcript key={staticKey} items={agent.items} />
      <LiveArea live={agent.live} maxRows={dialogOpen ? Math.min(liveRows, 3) : liveRows} />
      <Box flexDirection="column" marginTop={1}>
        {ask ? (
          <PermissionDialog key={ask.request.toolUseId} request={ask.request} waiting={agent.asks.length - 1} onAnswer={(a) => agent.answer(ask, a)} maxPreviewRows={Math.max(3, Math.min(rows - 6, 18) - 12)} />
        ) : (
          <PromptInput value={buffer} onChange={setBuffer} onSubmit={submitText} onHistory={onHistory} isActive={!dialogOpen} placeholder={agent.status.working ? 'Type to queue a message' : 'Ask wicket to do something · /help for commands'} />
        )}
        {!ask && hints.length ? <CommandHints commands={hints} /> : null}
        <StatusLine status={agent.status} model={base.model} mode={base.permission.mode} notice={notice} queued={agent.queued} />
      </Box>
    </ViewContext.Provider>
  );
}

function CommandHints({ commands }: { commands: SlashCommand[] }): React.ReactElement {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return (
    <Box flexDirection="column">
      {commands.map((c) => (
        <Text key={c.name} wrap="truncate-end">
          <Text bold>{`/${c.name}`.padEnd(width)}</Text>
          <Text dimColor>{` ${c.description}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
