/**
 * Keys that act on the whole app: Esc interrupts the run (twice when idle: clears the line, or on an
 * empty line opens the rewind list), Ctrl-C clears the line (twice: exit),
 * Ctrl-D on an empty line exits, Shift+Tab cycles the permission mode, Tab takes the first hint (a
 * command, an `@` resource), Ctrl+R opens the history search. While a permission prompt is open, only Ctrl-C, Ctrl-D and
 * Shift+Tab act here; while the history search is open, it has every key.
 */
import { useInput } from 'ink';
import { useCallback, useRef, useState } from 'react';
import { nextMode, type PermissionMode } from '../../base/permission-modes.js';
import type { Hint } from '../completions.js';
import * as B from '../input-buffer.js';

const DOUBLE_PRESS_MS = 2000;

export interface AppKeyDeps {
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
  openSearch: () => void;
  /** Esc Esc on an empty prompt: pick a prompt to rewind to. */
  openRewind?: () => void;
}

/** Returns the notice to show in the status line (e.g. "Press Ctrl-C again to exit"). */
export function useAppKeys(d: AppKeyDeps): string | undefined {
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

  useInput((input, key) => {
    const s = now.current;
    if (s.searching) return;
    if (key.ctrl && input === 'r' && !s.dialogOpen) return s.openSearch();
    if (key.ctrl && input === 'c') {
      if (s.buffer.text && !s.dialogOpen) return s.setBuffer(B.emptyBuffer);
      if (pressedTwice('ctrl-c')) return s.quit();
      if (s.busy()) s.interrupt();
      return flash('Press Ctrl-C again to exit');
    }
    if (key.ctrl && input === 'd' && !s.buffer.text && !s.dialogOpen) return s.quit();
    if (key.tab && key.shift) {
      s.permission.mode = nextMode(s.permission.mode, { allowBypass: s.allowBypass });
      return setModeTick((t) => t + 1);
    }
    if (s.dialogOpen) return;
    if (key.escape) {
      if (s.busy()) return s.interrupt();
      if (pressedTwice('esc')) {
        if (s.buffer.text) s.setBuffer(B.emptyBuffer);
        else s.openRewind?.();
      }
      return;
    }
    if (key.tab) {
      const first = s.hints[0];
      if (first) s.setBuffer(B.fromText(first.text));
    }
  });
  return notice;
}
