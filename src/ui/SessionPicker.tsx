/**
 * `/resume` and `wicket -r` without an id: the saved sessions of this project, newest first, each with
 * its name or first prompt, age, message count and branch. Typing searches; Up/Down move; Enter
 * resumes; Ctrl+F resumes as a new session (a fork); Ctrl+V shows the end of the conversation;
 * Ctrl+A shows the sessions of every project (again: this project's); Esc leaves.
 */
import { Box, render, Text } from 'ink';
import React, { useMemo, useRef, useState } from 'react';
import type { SessionSummary } from '../session/session-list.js';
import { useKeys } from './key-router.js';
import { details, label, matching } from './session-rows.js';
import { symbols, theme } from './theme.js';

export interface SessionPickerProps {
  /** The sessions of this project, or of every project. */
  readonly load: (all: boolean) => readonly SessionSummary[];
  /** The end of a session's conversation, as lines, for the preview. */
  readonly preview: (s: SessionSummary, rows: number) => string[];
  readonly cwd: string;
  /** The session running now, which is not offered. */
  readonly current?: string;
  readonly onChoose: (s: SessionSummary, fork: boolean) => void;
  readonly onCancel: () => void;
  readonly maxRows?: number;
}

interface PickerState {
  all: boolean;
  query: string;
  index: number;
  previewing: boolean;
}

const KEYS = 'enter resume · ctrl+f fork · ctrl+v preview · ctrl+a all projects · esc cancel';

export function SessionPicker(props: SessionPickerProps): React.ReactElement {
  const { maxRows = 14 } = props;
  const [state, setState] = useState<PickerState>({ all: false, query: '', index: 0, previewing: false });
  const latest = useRef(state);
  const update = (next: Partial<PickerState>) => setState((latest.current = { ...latest.current, ...next }));
  const here = useMemo(() => props.load(false).filter((s) => s.id !== props.current), []);
  const everywhere = useRef<readonly SessionSummary[] | undefined>(undefined);
  const sessions = (all: boolean) => (all ? (everywhere.current ??= props.load(true).filter((s) => s.id !== props.current)) : here);
  const shown = matching(sessions(state.all), state.query);
  const done = useRef(false);
  const finish = (f: () => void) => {
    if (done.current) return;
    done.current = true;
    f();
  };

  useKeys((input, key) => {
    const s = latest.current;
    const list = matching(sessions(s.all), s.query);
    const picked = list[Math.min(s.index, list.length - 1)];
    if (key.escape || (key.ctrl && input === 'c')) return s.previewing ? update({ previewing: false }) : finish(props.onCancel);
    if (key.return || (key.ctrl && input === 'f')) return picked && finish(() => props.onChoose(picked, !key.return));
    if (key.ctrl && input === 'v') return update({ previewing: !s.previewing });
    if (key.ctrl && input === 'a') return update({ all: !s.all, index: 0 });
    if (key.upArrow) return update({ index: Math.max(0, s.index - 1) });
    if (key.downArrow) return update({ index: Math.min(Math.max(0, list.length - 1), s.index + 1) });
    if (key.backspace || key.delete) return update({ query: s.query.slice(0, -1), index: 0 });
    if (key.ctrl || key.meta || !input || input.includes('\u001b')) return;
    update({ query: s.query + input.replace(/[\r\n]/g, ' '), index: 0 });
  });

  const index = Math.min(state.index, Math.max(0, shown.length - 1));
  const selected = shown[index];
  const listRows = Math.max(1, Math.floor((maxRows - 4) / 2));
  const first = Math.max(0, Math.min(index - Math.floor(listRows / 2), shown.length - listRows));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>
        Resume a session <Text dimColor>({state.all ? 'all projects' : 'this project'})</Text>
      </Text>
      <Text>
        <Text dimColor>search: </Text>
        {state.query}
        <Text inverse> </Text>
      </Text>
      {state.previewing && selected ? (
        <Preview lines={props.preview(selected, maxRows - 4)} title={label(selected)} />
      ) : shown.length ? (
        shown.slice(first, first + listRows).map((s, i) => (
          <Box key={s.id} flexDirection="column">
            <Text wrap="truncate-end" color={first + i === index ? theme.color('accent') : undefined}>
              {`${first + i === index ? symbols.pointer : ' '} ${label(s)}`}
            </Text>
            <Text wrap="truncate-end" dimColor>{`  ${details(s, props.cwd)}`}</Text>
          </Box>
        ))
      ) : (
        <Text dimColor>{state.query ? 'No session matches.' : `No saved sessions${state.all ? '' : ' in this project (ctrl+a: all projects)'}.`}</Text>
      )}
      <Text dimColor wrap="truncate-end">
        {KEYS}
      </Text>
    </Box>
  );
}

function Preview({ lines, title }: { lines: string[]; title: string }): React.ReactElement {
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end" bold>{`Preview: ${title}`}</Text>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l}
        </Text>
      ))}
    </Box>
  );
}

/** Draws the picker alone, before the app (`wicket -r`), and resolves with the choice (undefined when left without one). */
export async function pickSession(props: Omit<SessionPickerProps, 'onChoose' | 'onCancel'>): Promise<{ session: SessionSummary; fork: boolean } | undefined> {
  let choice: { session: SessionSummary; fork: boolean } | undefined;
  const instance = render(
    <SessionPicker
      {...props}
      onChoose={(session, fork) => {
        choice = { session, fork };
        instance.unmount();
      }}
      onCancel={() => instance.unmount()}
    />,
    { exitOnCtrlC: false, patchConsole: false },
  );
  await instance.waitUntilExit().catch(() => undefined);
  instance.cleanup();
  return choice;
}
