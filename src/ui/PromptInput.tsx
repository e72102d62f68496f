/**
 * The prompt editor: cursor movement, multi-line input (Shift+Enter, Alt+Enter, Ctrl+J, or `\` then
 * Enter), bracketed paste with large pastes collapsed, Up/Down through history at the first/last line.
 * Controlled: the buffer lives in the parent; Esc, Ctrl-C, Ctrl-D and Shift+Tab are the parent's.
 */
import { Box, Text, type Key } from 'ink';
import React, { useContext, useRef } from 'react';
import * as B from './input-buffer.js';
import { KeyRouterContext, useKeys } from './key-router.js';
import { symbols } from './theme.js';
import { initialVim, vimKey, type VimMode, type VimState } from './vim.js';
import { useView } from './view-context.js';

export interface PromptInputProps {
  readonly value: B.Buffer;
  readonly onChange: (next: B.Buffer) => void;
  readonly onSubmit: (value: B.Buffer) => void;
  /** Up (-1) at the first line or Down (+1) at the last: a history entry, or undefined. */
  readonly onHistory?: (dir: -1 | 1, current: B.Buffer) => B.Buffer | undefined;
  readonly isActive?: boolean;
  readonly placeholder?: string;
  /** Lines shown at most; the view follows the cursor. */
  readonly maxLines?: number;
  /** A pasted text the app takes as something else (an image file's path): the buffer with it, or undefined. */
  readonly attachPasted?: (text: string, b: B.Buffer) => B.Buffer | undefined;
  /** Vim keys (editorMode "vim"), and who hears the mode change (the status line). */
  readonly vim?: boolean;
  readonly onVimMode?: (mode: VimMode) => void;
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

export function PromptInput(props: PromptInputProps): React.ReactElement {
  const { value, isActive = true, placeholder, maxLines = 8 } = props;
  const { theme } = useView();
  const latest = useRef(value);
  latest.current = value;
  const pasting = useRef<string | undefined>(undefined);
  const vim = useRef<VimState>(initialVim);
  const propsRef = useRef(props);
  propsRef.current = props;

  const router = useContext(KeyRouterContext);
  useKeys((input, key) => {
    const p = propsRef.current;
    const set = (next: B.Buffer | undefined) => {
      if (!next || next === latest.current) return;
      latest.current = next;
      p.onChange(next);
    };
    if (pasting.current !== undefined || input === PASTE_START || input.startsWith(PASTE_START)) {
      handlePaste(input, key, pasting, set, latest.current, p.attachPasted);
      if (router) router.pasting = pasting.current !== undefined;
      return;
    }
    if (p.vim) {
      const v = vimKey(vim.current, input, key, latest.current);
      if (v.kind !== 'pass') {
        if (v.state.mode !== vim.current.mode) p.onVimMode?.(v.state.mode);
        vim.current = v.state;
        if (v.kind === 'submit') p.onSubmit(latest.current);
        else set(v.buffer);
        return;
      }
    }
    const result = handleKey(input, key, latest.current, p);
    if (result === 'submit') p.onSubmit(latest.current);
    else if (result && typeof result === 'object' && 'then' in result) {
      set(result.then);
      p.onSubmit(latest.current);
    } else set(result);
  }, isActive);

  return (
    <Box
      borderStyle="round"
      borderColor={theme.color(value.text.startsWith('!') ? 'bash' : 'muted')}
      borderLeft={false}
      borderRight={false}
      flexDirection="column"
    >
      <BufferView value={value} placeholder={placeholder} maxLines={maxLines} showCursor={isActive} />
    </Box>
  );
}

type KeyResult = B.Buffer | undefined | 'submit' | { then: B.Buffer };

function handlePaste(
  input: string,
  key: Key,
  pasting: React.MutableRefObject<string | undefined>,
  set: (b: B.Buffer) => void,
  current: B.Buffer,
  attach?: (text: string, b: B.Buffer) => B.Buffer | undefined,
): void {
  let chunk = input.startsWith(PASTE_START) ? input.slice(PASTE_START.length) : input;
  if (pasting.current === undefined) pasting.current = '';
  if (key.return && !chunk) chunk = '\n';
  const end = chunk.indexOf(PASTE_END);
  if (end === -1) {
    pasting.current += chunk;
    return;
  }
  const text = pasting.current + chunk.slice(0, end);
  pasting.current = undefined;
  set(attach?.(text, current) ?? B.paste(current, text));
}

/** One key → the next buffer, 'submit', or undefined (ignored). */
export function handleKey(input: string, key: Key, b: B.Buffer, p: Pick<PromptInputProps, 'onHistory'>): KeyResult {
  if (key.escape || key.tab || (key.ctrl && (input === 'c' || input === 'l' || input === 'r' || input === 'o'))) return undefined;
  if (key.ctrl && input === 'd') return b.text ? B.deleteForward(b) : undefined;
  if (key.return) {
    if (key.shift || key.meta) return B.insert(b, '\n');
    if (b.text.slice(0, b.cursor).endsWith('\\')) return B.insert(B.backspace(b), '\n');
    return 'submit';
  }
  if (input === '\n') return B.insert(b, '\n');
  if (key.backspace || key.delete) return key.meta ? B.deleteWordBefore(b) : B.backspace(b);
  if (key.leftArrow) return key.meta || key.ctrl ? B.wordLeft(b) : B.left(b);
  if (key.rightArrow) return key.meta || key.ctrl ? B.wordRight(b) : B.right(b);
  if (key.upArrow || key.downArrow) {
    const dir = key.upArrow ? -1 : 1;
    return B.verticalMove(b, dir) ?? p.onHistory?.(dir, b);
  }
  if (key.home) return B.lineStart(b);
  if (key.end) return B.lineEnd(b);
  if (key.ctrl) return ctrlKey(input, b);
  if (key.meta) return input === 'b' ? B.wordLeft(b) : input === 'f' ? B.wordRight(b) : undefined;
  if (!input) return undefined;
  return typed(input, b);
}

function ctrlKey(input: string, b: B.Buffer): B.Buffer | undefined {
  switch (input) {
    case 'a':
      return B.lineStart(b);
    case 'e':
      return B.lineEnd(b);
    case 'b':
      return B.left(b);
    case 'f':
      return B.right(b);
    case 'u':
      return B.killToLineStart(b);
    case 'k':
      return B.killToLineEnd(b);
    case 'w':
      return B.deleteWordBefore(b);
    default:
      return undefined;
  }
}

/** Typed text. Several keys at once without bracketed paste: a paste when large, else keystrokes. */
function typed(input: string, b: B.Buffer): KeyResult {
  if (input.length === 1) return B.insert(b, input);
  const breaks = (input.match(/[\r\n]/g) ?? []).length;
  const trailingEnter = breaks === 1 && /\r$/.test(input);
  if (trailingEnter) {
    const typedText = input.slice(0, -1);
    // `\` then Enter, read together on a busy start: a new line, as when they come one by one.
    if (`${b.text.slice(0, b.cursor)}${typedText}`.endsWith('\\')) return B.insert(B.insert(b, typedText.slice(0, -1)), '\n');
    return { then: B.insert(b, typedText) };
  }
  if (breaks > 0 || input.length > B.LARGE_PASTE_CHARS) return B.paste(b, input);
  return B.insert(b, input);
}

function BufferView({
  value,
  placeholder,
  maxLines,
  showCursor,
}: {
  value: B.Buffer;
  placeholder?: string;
  maxLines: number;
  showCursor: boolean;
}): React.ReactElement {
  const { theme } = useView();
  const prefix = <Text color={theme.color('accent')}>{`${symbols.prompt} `}</Text>;
  if (!value.text) {
    return (
      <Box>
        {prefix}
        {showCursor ? <Text inverse> </Text> : null}
        {placeholder ? <Text dimColor>{placeholder}</Text> : null}
      </Box>
    );
  }
  const lines = value.text.split('\n');
  const { line: curLine, col } = B.cursorPos(value);
  const first = Math.max(0, Math.min(curLine - Math.floor(maxLines / 2), lines.length - maxLines));
  const shown = lines.slice(first, first + maxLines);
  return (
    <Box flexDirection="column">
      {first > 0 ? <Text dimColor>{`  ↑ ${first} more lines`}</Text> : null}
      {shown.map((l, i) => {
        const n = first + i;
        return (
          <Box key={n}>
            {n === 0 ? prefix : <Text>{'  '}</Text>}
            <Text wrap="wrap">{n === curLine && showCursor ? withCursor(l, col) : l || ' '}</Text>
          </Box>
        );
      })}
      {first + shown.length < lines.length ? <Text dimColor>{`  ↓ ${lines.length - first - shown.length} more lines`}</Text> : null}
    </Box>
  );
}

function withCursor(line: string, col: number): React.ReactElement {
  const ch = line[col] ?? ' ';
  return (
    <>
      {line.slice(0, col)}
      <Text inverse>{ch}</Text>
      {line.slice(col + 1)}
    </>
  );
}
