/**
 * What the app learns from the terminal's input besides keys: focus reporting is turned on while the
 * app runs (CSI ? 1004 h, off when it ends or the process exits), and the terminal's reports
 * (ESC [ I, ESC [ O) are taken out of the input before any input sees them, so they are never typed
 * as text; every other key tells `onKey` that the person typed.
 */
import { useStdin, useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import { FOCUS_REPORTING_OFF, FOCUS_REPORTING_ON, focusReport } from '../attention.js';

export interface TerminalInputHandlers {
  onFocus: (f: 'in' | 'out') => void;
  onKey: () => void;
}

export function useTerminalInput(handlers: TerminalInputHandlers): void {
  const { internal_eventEmitter: emitter } = useStdin();
  const { stdout } = useStdout();
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (!emitter) return;
    const emit = emitter.emit;
    // Ink hands each parsed key to its inputs through this emitter: a focus report stops here.
    emitter.emit = function (this: typeof emitter, event: string | symbol, ...args: unknown[]) {
      if (event === 'input') {
        const f = focusReport(args[0]);
        if (f) {
          latest.current.onFocus(f);
          return true;
        }
        latest.current.onKey();
      }
      return emit.call(this, event, ...args);
    } as typeof emit;
    const tty = stdout.isTTY === true;
    const off = () => stdout.write(FOCUS_REPORTING_OFF);
    if (tty) {
      stdout.write(FOCUS_REPORTING_ON);
      process.once('exit', off);
    }
    return () => {
      emitter.emit = emit;
      if (!tty) return;
      process.removeListener('exit', off);
      off();
    };
  }, [emitter, stdout]);
}
