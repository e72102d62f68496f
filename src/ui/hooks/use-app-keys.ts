/**
 * The app's key bindings (keybindings/: Claude Code's defaults and `~/.claude/keybindings.json`):
 * each key goes here first and runs the action it is bound to in the contexts active now; a key
 * bound to nothing goes on to the input that has the focus. Esc interrupts the run (twice when
 * idle: clears the line, or on an empty line opens the rewind list), Ctrl-C clears the line (twice:
 * exit), Ctrl-D on an empty line exits, Shift+Tab cycles the permission mode, Tab takes the first
 * hint, Ctrl+R searches the history, Ctrl+O shows the whole transcript, Ctrl+G edits the prompt in
 * $EDITOR, Ctrl+V pastes an image, Ctrl+B sends a running command to the background. While a
 * permission prompt is open only the Global keys (and Shift+Tab) act here; while the history search
 * is open, it has every key.
 */
import type { Key } from 'ink';
import { useCallback, useRef, useState } from 'react';
import { nextMode, type PermissionMode } from '../../base/permission-modes.js';
import type { Hint } from '../completions.js';
import * as B from '../input-buffer.js';
import { strokeOf } from '../keybindings/ink-key.js';
import type { Keymap } from '../keybindings/keymap.js';
import { strokeId } from '../keybindings/parse.js';

const DOUBLE_PRESS_MS = 2000;

/** Actions the prompt itself carries out on its own keys (Enter with `\`, Up within lines…): only other keys bound to them are done here. */
const NATIVE: Record<string, string> = { 'chat:submit': 'enter', 'chat:newline': 'ctrl+j', 'history:previous': 'up', 'history:next': 'down' };

export interface AppKeyDeps {
  keymap: Keymap;
  buffer: B.Buffer;
  setBuffer: (b: B.Buffer) => void;
  dialogOpen: boolean;
  /** Whether a run is going now (not as last rendered: Esc right after Enter must interrupt). */
  busy: () => boolean;
  interrupt: () => void;
  quit: () => void;
  /** The hints under the prompt, for Tab. */
  hints: readonly Hint[];
  /** The session's permission state (mutated by Shift+Tab). */
  permission: { mode: PermissionMode };
  allowBypass: boolean;
  /** The history search is open (it handles the keys). */
  searching: boolean;
  /** The full transcript is shown. */
  transcript: boolean;
  openSearch: () => void;
  /** Esc Esc on an empty prompt: pick a prompt to rewind to. */
  openRewind?: () => void;
  toggleTranscript: () => void;
  /** The prompt in $EDITOR. */
  editExternally: () => void;
  /** An image from the clipboard into the prompt. */
  pasteImage: () => void;
  /** Running commands go on in the background. */
  background: () => void;
  /** Send what is typed now (a key bound to chat:submit). */
  submit: (b: B.Buffer) => void;
  /** A history entry (a key bound to history:previous / history:next). */
  history: (dir: -1 | 1) => void;
  openModelPicker?: () => void;
  /** Vim keys in INSERT mode: Esc goes to the prompt (to NORMAL mode), not to interrupt. */
  vimInsert?: boolean;
}

/** The status line's notice ("Press Ctrl-C again to exit"), and the handler the key router calls first. */
export function useAppKeys(d: AppKeyDeps): { notice: string | undefined; onKey: (input: string, key: Key) => boolean } {
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [, setModeTick] = useState(0);
  const lastPress = useRef<{ key: string; at: number }>({ key: '', at: 0 });
  // Keys can arrive before React subscribes the new handler: read the current state through a ref.
  const now = useRef(d);
  now.current = d;

  const flash = useCallback((text: string) => {
    setNotice(text);
    setTimeout(() => setNotice((n) => (n === text ? undefined : n)), DOUBLE_PRESS_MS).unref?.();
  }, []);
  const pressedTwice = (key: string) => {
    const t = Date.now();
    const twice = lastPress.current.key === key && t - lastPress.current.at < DOUBLE_PRESS_MS;
    lastPress.current = { key: twice ? '' : key, at: t };
    return twice;
  };

  /** Runs `action`; false when it does not apply now and the key should go on to the input. */
  const run = (action: string, keys: string): boolean => {
    const s = now.current;
    switch (action) {
      case 'app:interrupt':
        if (s.buffer.text && !s.dialogOpen) return (s.setBuffer(B.emptyBuffer), true);
        if (pressedTwice('ctrl-c')) return (s.quit(), true);
        if (s.busy()) s.interrupt();
        return (flash('Press Ctrl-C again to exit'), true);
      case 'app:exit':
        if (s.buffer.text || s.dialogOpen) return false;
        return (s.quit(), true);
      case 'app:toggleTranscript':
      case 'transcript:exit':
        return (s.toggleTranscript(), true);
      case 'history:search':
        return s.dialogOpen ? false : (s.openSearch(), true);
      case 'chat:cycleMode':
        s.permission.mode = nextMode(s.permission.mode, { allowBypass: s.allowBypass });
        return (setModeTick((t) => t + 1), true);
      case 'chat:cancel':
        if (s.busy()) return (s.interrupt(), true);
        if (pressedTwice('esc')) {
          if (s.buffer.text) s.setBuffer(B.emptyBuffer);
          else s.openRewind?.();
        }
        return true;
      case 'chat:clearInput':
        return (s.setBuffer(B.emptyBuffer), true);
      case 'chat:externalEditor':
        return (s.editExternally(), true);
      case 'chat:imagePaste':
        return (s.pasteImage(), true);
      case 'chat:modelPicker':
        return s.openModelPicker ? (s.openModelPicker(), true) : false;
      case 'task:background':
        return s.busy() ? (s.background(), true) : false;
      case 'autocomplete:accept': {
        const first = s.hints[0];
        if (first) s.setBuffer(B.fromText(first.text));
        return true;
      }
      default:
        return native(action, keys);
    }
  };

  /** chat:submit, chat:newline and history moves on keys other than the prompt's own. */
  const native = (action: string, keys: string): boolean => {
    const s = now.current;
    if (!(action in NATIVE) || NATIVE[action] === keys) return false;
    if (action === 'chat:submit') s.submit(s.buffer);
    else if (action === 'chat:newline') s.setBuffer(B.insert(s.buffer, '\n'));
    else s.history(action === 'history:previous' ? -1 : 1);
    return true;
  };

  const onKey = (input: string, key: Key): boolean => {
    const s = now.current;
    if (s.searching) return false;
    const stroke = strokeOf(input, key);
    if (!stroke) return false;
    if (s.vimInsert && stroke.key === 'escape' && !s.dialogOpen && !s.transcript) return false;
    const contexts = s.transcript
      ? ['Transcript', 'Global']
      : s.dialogOpen
        ? ['Global']
        : [...(s.hints.length ? ['Autocomplete'] : []), ...(s.busy() ? ['Task'] : []), 'Chat', 'Global'];
    const r = s.keymap.resolve(stroke, contexts);
    // Shift+Tab cycles the mode over a permission prompt too.
    if (r.kind === 'none' && s.dialogOpen && strokeId(stroke) === 'shift+tab') return run('chat:cycleMode', 'shift+tab');
    if (r.kind === 'pending' || r.kind === 'unbound') return true;
    if (r.kind === 'none') return s.transcript;
    return run(r.action, strokeId(stroke)) || s.transcript;
  };
  return { notice, onKey };
}
