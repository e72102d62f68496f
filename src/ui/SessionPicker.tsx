/**
 * `/resume` and `wicket -r` without an id: the saved sessions of this project, newest first, each with
 * its name or first prompt, age, message count and branch. The keys are Claude Code's: typing
 * searches; Up/Down move; Enter resumes; Space (with nothing typed) shows the end of the conversation;
 * Ctrl+R renames the session under the cursor; Ctrl+B keeps only the sessions of the branch checked out
 * here; Ctrl+A shows the sessions of every project (again: this project's); Esc clears what was typed,
 * then leaves. And wicket's own: Ctrl+F resumes as a new session (a fork), Ctrl+V previews too.
 */
import { Box, type Key, render, Text } from 'ink';
import React, { useRef, useState } from 'react';
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
  /** Names a saved session (Ctrl+R); without it the key does nothing. */
  readonly rename?: (s: SessionSummary, title: string) => void;
  /** The branch checked out here, for Ctrl+B. */
  readonly branch?: string;
  readonly maxRows?: number;
}

interface PickerState {
  all: boolean;
  /** Only the sessions of `branch` (Ctrl+B). */
  branchOnly: boolean;
  query: string;
  index: number;
  previewing: boolean;
  /** The new name being typed (Ctrl+R), for the session under the cursor. */
  renaming?: string;
}

const KEYS = (p: SessionPickerProps, s: PickerState) =>
  [
    `Ctrl+A to show ${s.all ? 'this project' : 'all projects'}`,
    ...(p.branch ? [`Ctrl+B to ${s.branchOnly ? 'show every branch' : 'only show current branch'}`] : []),
    'Space to preview',
    ...(p.rename ? ['Ctrl+R to rename'] : []),
    'Type to search',
    'Enter to resume',
    'Ctrl+F to fork',
    s.query ? 'Esc to clear' : 'Esc to close',
  ].join(' · ');

export function SessionPicker(props: SessionPickerProps): React.ReactElement {
  const { maxRows = 14 } = props;
  const [state, setState] = useState<PickerState>({ all: false, branchOnly: false, query: '', index: 0, previewing: false });
  const latest = useRef(state);
  const update = (next: Partial<PickerState>) => setState((latest.current = { ...latest.current, ...next }));
  const loaded = useRef<{ here?: readonly SessionSummary[]; everywhere?: readonly SessionSummary[] }>({});
  const sessions = (s: PickerState): SessionSummary[] => {
    const key = s.all ? 'everywhere' : 'here';
    const list = (loaded.current[key] ??= props.load(s.all).filter((x) => x.id !== props.current));
    return matching(s.branchOnly && props.branch ? list.filter((x) => x.gitBranch === props.branch) : list, s.query);
  };
  const shown = sessions(state);
  const done = useRef(false);
  const finish = (f: () => void) => {
    if (done.current) return;
    done.current = true;
    f();
  };

  useKeys((input, key) => {
    const s = latest.current;
    const list = sessions(s);
    const picked = list[Math.min(s.index, list.length - 1)];
    if (s.renaming !== undefined) return renameKey(input, key, s.renaming, picked);
    if (key.escape) return s.previewing ? update({ previewing: false }) : s.query ? update({ query: '', index: 0 }) : finish(props.onCancel);
    if (key.ctrl && input === 'c') return s.previewing ? update({ previewing: false }) : finish(props.onCancel);
    if (key.return || (key.ctrl && input === 'f')) return picked && finish(() => props.onChoose(picked, !key.return));
    if ((key.ctrl && input === 'v') || (input === ' ' && !key.ctrl && !key.meta && (!s.query || s.previewing))) return update({ previewing: !s.previewing });
    if (key.ctrl && input === 'r') return picked && props.rename && update({ renaming: label(picked), previewing: false });
    if (key.ctrl && input === 'b') return props.branch && update({ branchOnly: !s.branchOnly, index: 0 });
    if (key.ctrl && input === 'a') return update({ all: !s.all, index: 0 });
    if (key.upArrow) return update({ index: Math.max(0, s.index - 1) });
    if (key.downArrow) return update({ index: Math.min(Math.max(0, list.length - 1), s.index + 1) });
    if (key.backspace || key.delete) return update({ query: s.query.slice(0, -1), index: 0 });
    if (key.ctrl || key.meta || !input || input.includes('\u001b')) return;
    update({ query: s.query + input.replace(/[\r\n]/g, ' '), index: 0 });
  });

  /** A key while the new name is typed: Enter saves it (the lists are read again), Esc leaves it. */
  const renameKey = (input: string, key: Key, text: string, picked: SessionSummary | undefined): void => {
    if (key.escape || (key.ctrl && input === 'c')) return update({ renaming: undefined });
    if (key.return) {
      if (picked && text.trim()) {
        props.rename?.(picked, text);
        loaded.current = {};
      }
      return update({ renaming: undefined, index: 0 });
    }
    if (key.ctrl && input === 'u') return update({ renaming: '' });
    if (key.backspace || key.delete) return update({ renaming: text.slice(0, -1) });
    if (key.ctrl || key.meta || !input || input.includes('\u001b')) return;
    update({ renaming: text + input.replace(/[\r\n]/g, ' ') });
  };

  const index = Math.min(state.index, Math.max(0, shown.length - 1));
  const selected = shown[index];
  const listRows = Math.max(1, Math.floor((maxRows - 4) / 2));
  const first = Math.max(0, Math.min(index - Math.floor(listRows / 2), shown.length - listRows));
  const scope = `${state.all ? 'all projects' : 'this project'}${state.branchOnly && props.branch ? `, branch ${props.branch}` : ''}`;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>
        Resume a session <Text dimColor>({scope})</Text>
      </Text>
      {state.renaming !== undefined ? (
        <>
          <Text>
            <Text dimColor>New session name: </Text>
            {state.renaming}
            <Text inverse> </Text>
          </Text>
          <Text dimColor>Enter to save · Esc to cancel</Text>
        </>
      ) : (
        <>
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
          <Text dimColor>{KEYS(props, state)}</Text>
        </>
      )}
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
