/**
 * Ctrl+R: search the prompt history as you type. Ctrl+R again shows the next older match; Enter or
 * Tab puts the match in the prompt (it is not sent); Esc, Ctrl+G or Ctrl-C leave the prompt as it was.
 */
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { searchHistory } from './history.js';
import { useKeys } from './key-router.js';
import { useView } from './view-context.js';

export interface HistorySearchProps {
  readonly entries: readonly string[];
  /** The chosen entry, or undefined when the search was left without one. */
  readonly onDone: (entry: string | undefined) => void;
}

interface SearchState {
  query: string;
  match?: { index: number; entry: string };
}

export function HistorySearch({ entries, onDone }: HistorySearchProps): React.ReactElement {
  const { theme } = useView();
  const [state, setState] = useState<SearchState>({ query: '' });
  // Keys can arrive faster than renders: work on the latest state, not the rendered one.
  const latest = useRef(state);
  const update = (next: SearchState) => {
    latest.current = next;
    setState(next);
  };

  useKeys((input, key) => {
    const { query, match } = latest.current;
    if (key.escape || (key.ctrl && (input === 'g' || input === 'c'))) return onDone(undefined);
    if (key.return || key.tab) return onDone(match?.entry);
    // Keys typed faster than they are read come as one chunk ("run\r", "\r\r"): what precedes the first
    // line break is typed, and the break is Enter (the rest of the chunk goes with the search).
    const brk = key.ctrl || key.meta ? -1 : input.search(/[\r\n]/);
    if (brk >= 0) {
      const typed = input.slice(0, brk);
      return onDone(typed ? searchHistory(entries, query + typed)?.entry : match?.entry);
    }
    if (key.ctrl && input === 'r') {
      const older = query ? searchHistory(entries, query, match?.index ?? entries.length, match?.entry) : undefined;
      if (older) update({ query, match: older });
      return;
    }
    if (key.backspace || key.delete) {
      const q = query.slice(0, -1);
      return update({ query: q, match: q ? searchHistory(entries, q) : undefined });
    }
    if (key.ctrl || key.meta || !input || input.includes('\u001b')) return;
    const q = query + input;
    update({ query: q, match: searchHistory(entries, q) });
  });

  const shown = state.match?.entry.split('\n')[0] ?? '';
  return (
    <Box borderStyle="round" borderColor={theme.color('muted')} borderLeft={false} borderRight={false} flexDirection="column">
      <Text>
        <Text dimColor>search history: </Text>
        <Text>{state.query}</Text>
        <Text inverse> </Text>
      </Text>
      <Text wrap="truncate-end" dimColor={!state.match}>
        {state.query ? (state.match ? shown : 'no match') : 'type to search earlier prompts · Ctrl+R older · Enter to use · Esc to cancel'}
      </Text>
    </Box>
  );
}
