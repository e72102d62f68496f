/**
 * What some keys do to the whole app (use-app-keys.ts calls them): the full transcript (Ctrl+O),
 * the prompt in $EDITOR (Ctrl+G), an image from the clipboard (Ctrl+V), running commands to the
 * background (Ctrl+B), a pasted image path, and history moves bound to other keys.
 */
import { useStdout } from 'ink';
import { useCallback, useState } from 'react';
import { sendForegroundToBackground } from '../../tools/bash/foreground.js';
import { editInEditor } from '../external-editor.js';
import type { HistoryCursor } from '../history.js';
import { imagePathOf, readClipboardImage, readImageFile } from '../images.js';
import * as B from '../input-buffer.js';

export interface ActionDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  buffer: B.Buffer;
  setBuffer: (b: B.Buffer) => void;
  history: HistoryCursor;
  info: (text: string, tone?: 'info' | 'warning' | 'error') => void;
  /** Writes the whole transcript again (a new <Static>). */
  redraw: () => void;
}

export interface AppActions {
  transcript: boolean;
  toggleTranscript: () => void;
  editExternally: () => void;
  pasteImage: () => void;
  background: () => void;
  history: (dir: -1 | 1) => void;
  /** A pasted text that is the path of an image file: the image in its place. */
  attachPath: (text: string, b: B.Buffer) => B.Buffer | undefined;
}

export function useAppActions(d: ActionDeps): AppActions {
  const { stdout } = useStdout();
  const [transcript, setTranscript] = useState(false);
  const toggleTranscript = useCallback(() => {
    // The transcript is written again, in full or as before: the screen and scrollback are cleared first.
    stdout.write('\x1b[2J\x1b[3J\x1b[H');
    setTranscript((t) => !t);
    d.redraw();
  }, [stdout, d.redraw]);
  const editExternally = () => {
    const out = editInEditor(B.expand(d.buffer), d.env);
    if ('error' in out) d.info(`Could not edit the prompt: ${out.error}`, 'warning');
    else d.setBuffer(B.fromText(out.text));
  };
  const pasteImage = () => {
    const got = readClipboardImage(d.env, d.cwd);
    if ('error' in got) d.info(`No image pasted: ${got.error}`, 'warning');
    else d.setBuffer(B.attachImage(d.buffer, got.image));
  };
  const background = () => {
    const n = sendForegroundToBackground();
    if (n) d.info(`${n === 1 ? 'The running command goes' : `${n} running commands go`} on in the background (/tasks lists them).`);
  };
  const history = (dir: -1 | 1) => {
    const entry = dir === -1 ? d.history.up(d.buffer.text) : d.history.down();
    if (entry !== undefined) d.setBuffer(B.fromText(entry));
  };
  const attachPath = (text: string, b: B.Buffer): B.Buffer | undefined => {
    const file = imagePathOf(text, d.cwd);
    if (!file) return undefined;
    const got = readImageFile(file);
    if ('error' in got) {
      d.info(`No image attached: ${got.error}`, 'warning');
      return undefined;
    }
    return B.attachImage(b, got.image);
  };
  return { transcript, toggleTranscript, editExternally, pasteImage, background, history, attachPath };
}
