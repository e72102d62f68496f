/**
 * Esc Esc or /rewind: pick a prompt of this session, then what to restore to the point before it:
 * the code and the conversation, the conversation (the prompt comes back in the input), the code,
 * or nothing. Up/Down and Enter (or 1-4); Esc goes back a step. The code is restored whatever tool
 * changed it (a snapshot of the project covers the shell); files written outside the project are
 * listed as not restorable, and a moved git HEAD is shown before the choice that confirms it.
 */
import { Box, Text } from 'ink';
import React, { useEffect, useRef, useState } from 'react';
import type { PromptMark } from '../base/prompt-marks.js';
import { useKeys } from './key-router.js';
import { oneLine } from './rewind.js';
import { fileLabel, previewSummary, type CodePreview } from './rewind-preview.js';
import { symbols } from './theme.js';
import { useView } from './view-context.js';

export interface RewindChoice {
  code: boolean;
  conversation: boolean;
  /** The person saw that the project's git HEAD moved since, and restores the code anyway. */
  force?: boolean;
}

export interface RewindDialogProps {
  /** Prompts, oldest first. */
  readonly prompts: readonly PromptMark[];
  /** What restoring the code to before prompt `i` would change. */
  readonly preview: (i: number) => Promise<CodePreview>;
  readonly onChoose: (index: number, choice: RewindChoice) => void;
  readonly onCancel: () => void;
  /** Rows the dialog may take. */
  readonly maxRows?: number;
}

const NOT_TRACKED =
  'Files are restored whatever tool changed them; large ignored folders (node_modules/, dist/…), files over the size cap and files outside the project are not.';

export function RewindDialog({ prompts, preview, onChoose, onCancel, maxRows = 10 }: RewindDialogProps): React.ReactElement {
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const [last, setLast] = useState(prompts.length - 1);
  const previews = usePreviews(prompts.length, preview);
  const done = useRef(false);
  const finish = (f: () => void) => {
    if (done.current) return;
    done.current = true;
    f();
  };
  if (picked !== undefined) {
    return (
      <RewindConfirm
        mark={prompts[picked]!}
        preview={previews[picked]}
        onChoose={(choice) => finish(() => onChoose(picked, choice))}
        maxFiles={Math.max(1, maxRows - 14)}
        onBack={() => setPicked(undefined)}
      />
    );
  }
  const pick = (i: number) => {
    setLast(i);
    setPicked(i);
  };
  return <PromptList prompts={prompts} previews={previews} maxRows={maxRows} initial={last} onPick={pick} onCancel={() => finish(onCancel)} />;
}

/** Previews of every prompt, computed one after the other once the dialog opens. */
function usePreviews(count: number, preview: (i: number) => Promise<CodePreview>): Array<CodePreview | undefined> {
  const [previews, setPreviews] = useState<Array<CodePreview | undefined>>(() => new Array(count).fill(undefined));
  useEffect(() => {
    let live = true;
    void (async () => {
      // Newest first: the prompts near the selection are shown first.
      for (let i = count - 1; i >= 0 && live; i--) {
        const p = await preview(i);
        if (live) setPreviews((old) => Object.assign([...old], { [i]: p }));
      }
    })();
    return () => {
      live = false;
    };
  }, [count]);
  return previews;
}

interface PromptListProps {
  prompts: readonly PromptMark[];
  previews: ReadonlyArray<CodePreview | undefined>;
  maxRows: number;
  initial: number;
  onPick: (i: number) => void;
  onCancel: () => void;
}

function PromptList({ prompts, previews, maxRows, initial, onPick, onCancel }: PromptListProps): React.ReactElement {
  const { theme, columns } = useView();
  const [selected, setSelectedState] = useState(initial);
  const sel = useRef(initial);
  const setSelected = (n: number) => setSelectedState((sel.current = Math.max(0, Math.min(prompts.length - 1, n))));
  useKeys((_input, key) => {
    if (key.escape) return onCancel();
    if (key.upArrow) setSelected(sel.current - 1);
    else if (key.downArrow) setSelected(sel.current + 1);
    else if (key.return) onPick(sel.current);
  });
  // Each prompt takes two rows: its text and what its code restore would change.
  const fit = Math.max(1, Math.floor((maxRows - 1) / 2));
  const first = Math.max(0, Math.min(selected - Math.floor(fit / 2), prompts.length - fit));
  const width = Math.max(20, columns - 12);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>Rewind</Text>
      <Text dimColor>Restore the code and/or the conversation to the point before…</Text>
      <Box flexDirection="column" marginY={1}>
        {prompts.slice(first, first + fit).map((p, k) => {
          const i = first + k;
          const on = i === selected;
          return (
            <Box key={i} flexDirection="column">
              <Text color={on ? theme.color('accent') : undefined} wrap="truncate-end">
                {`${on ? symbols.pointer : ' '} ${oneLine(p.text, width)}`}
              </Text>
              <Text dimColor wrap="truncate-end">{`  ${previewSummary(previews[i])}`}</Text>
            </Box>
          );
        })}
      </Box>
      <Text dimColor>Enter: choose · Esc: close</Text>
    </Box>
  );
}

interface Option {
  label: string;
  choice?: RewindChoice;
}

function optionsFor(mark: PromptMark, preview: CodePreview | undefined): Option[] {
  const conversation = mark.at !== undefined;
  const code = preview?.kind === 'files' && preview.files.some((f) => f.action !== 'unknown');
  const force = preview?.kind === 'files' && preview.moved !== undefined;
  const anyway = force ? ' (git HEAD moved: anyway)' : '';
  const extra = force ? { force: true } : {};
  return [
    ...(code && conversation ? [{ label: `Restore code and conversation${anyway}`, choice: { code: true, conversation: true, ...extra } }] : []),
    ...(conversation ? [{ label: 'Restore conversation', choice: { code: false, conversation: true } }] : []),
    ...(code ? [{ label: `Restore code${anyway}`, choice: { code: true, conversation: false, ...extra } }] : []),
    { label: 'Never mind' },
  ];
}

interface ConfirmProps {
  mark: PromptMark;
  preview: CodePreview | undefined;
  /** Files listed at most. */
  maxFiles: number;
  onChoose: (choice: RewindChoice) => void;
  onBack: () => void;
}

function RewindConfirm({ mark, preview, maxFiles, onChoose, onBack }: ConfirmProps): React.ReactElement {
  const { theme, columns } = useView();
  const options = optionsFor(mark, preview);
  const [selected, setSelectedState] = useState(0);
  const sel = useRef(0);
  const setSelected = (n: number) => setSelectedState((sel.current = (n + options.length) % options.length));
  const pick = (o: Option | undefined) => {
    if (!o) return;
    if (o.choice) onChoose(o.choice);
    else onBack();
  };
  useKeys((input, key) => {
    if (key.escape) return onBack();
    if (/^[1-9]$/.test(input)) return pick(options[Number(input) - 1]);
    if (key.upArrow) setSelected(sel.current - 1);
    else if (key.downArrow || key.tab) setSelected(sel.current + 1);
    else if (key.return) pick(options[sel.current]);
  });
  const choice = options[selected]?.choice;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.color('accent')} paddingX={1}>
      <Text bold>Rewind</Text>
      <Text>Confirm you want to restore to the point before you sent this message:</Text>
      <Box marginY={1} paddingLeft={1} borderStyle="single" borderTop={false} borderRight={false} borderBottom={false} borderColor={theme.color('muted')}>
        <Text wrap="truncate-end">{oneLine(mark.text, Math.max(20, columns - 10))}</Text>
      </Box>
      <Text dimColor wrap="wrap">
        {conversationLine(mark, choice)}
      </Text>
      <CodeLines preview={preview} choice={choice} maxFiles={maxFiles} />
      <Box marginTop={1} flexDirection="column">
        {options.map((o, i) => (
          <Text key={o.label} color={i === selected ? theme.color('accent') : undefined}>
            {`${i === selected ? symbols.pointer : ' '} ${i + 1}. ${o.label}`}
          </Text>
        ))}
      </Box>
      <Box marginTop={1}>
        <Text dimColor wrap="wrap">
          {NOT_TRACKED}
        </Text>
      </Box>
    </Box>
  );
}

function conversationLine(mark: PromptMark, choice: RewindChoice | undefined): string {
  if (mark.at === undefined) return 'The conversation cannot go back past the compaction since; only the code can.';
  if (choice?.conversation) return 'The conversation will go back to before this message, which comes back in the input.';
  return 'The conversation will be unchanged.';
}

function CodeLines({
  preview,
  choice,
  maxFiles,
}: {
  preview: CodePreview | undefined;
  choice: RewindChoice | undefined;
  maxFiles: number;
}): React.ReactElement {
  if (!preview) return <Text dimColor>Looking at the files…</Text>;
  if (preview.kind === 'unavailable') return <Text dimColor wrap="wrap">{`The code cannot be restored: ${preview.reason}.`}</Text>;
  if (!preview.files.length) return <Text dimColor>No file of the project changed since then: the code will be unchanged.</Text>;
  if (!choice?.code)
    return <Text dimColor>{`The code will be unchanged (${preview.files.length} file${preview.files.length === 1 ? '' : 's'} changed since then).`}</Text>;
  const shown = preview.files.slice(0, maxFiles);
  return (
    <Box flexDirection="column">
      <Text dimColor>{`The code will be restored in ${preview.files.length} file${preview.files.length === 1 ? '' : 's'}:`}</Text>
      {shown.map((f) => (
        <Text key={f.path} dimColor wrap="truncate-end">
          {`  ${fileLabel(f)}${f.reason && f.action === 'unknown' ? `: ${f.reason}` : ''}`}
        </Text>
      ))}
      {preview.files.length > shown.length ? <Text dimColor>{`  and ${preview.files.length - shown.length} more`}</Text> : null}
      {preview.notRestorable?.length ? (
        <Text color="yellow" wrap="truncate-end">{`Not restorable (written outside the project by a command): ${preview.notRestorable.join(', ')}`}</Text>
      ) : null}
      {preview.moved ? <Text color="yellow" wrap="wrap">{`Warning: ${preview.moved}; restoring puts back files of another state.`}</Text> : null}
    </Box>
  );
}
