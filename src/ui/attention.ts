/**
 * When the app calls the person back, as Claude Code does: the terminal's notification when a turn
 * ends or a permission prompt waits, only while the terminal does not have focus (focus reporting,
 * CSI ? 1004 h; a terminal that never reports focus is treated as unfocused, so it is notified as
 * before); and the Notification hook with `idle_prompt` once the prompt has waited the idle threshold
 * after a turn, the wait starting again at each key the person types.
 */

export type Focus = 'unknown' | 'in' | 'out';

export const FOCUS_REPORTING_ON = '\x1b[?1004h';
export const FOCUS_REPORTING_OFF = '\x1b[?1004l';

/** The terminal's focus report in a key's bytes (ESC [ I gained, ESC [ O lost), else undefined. */
export function focusReport(input: unknown): 'in' | 'out' | undefined {
  if (input === '\x1b[I') return 'in';
  if (input === '\x1b[O') return 'out';
  return undefined;
}

export interface AttentionDeps {
  /** Writes the terminal's notification. */
  notify: (message: string) => void;
  /** Fires the Notification hook with `idle_prompt`. */
  idle: () => void;
  /** The idle threshold, read when first needed. */
  idleMs: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
}

export const WAITING = 'wicket is waiting for your input';
export const PERMISSION = 'wicket needs your permission';

export class Attention {
  focus: Focus = 'unknown';
  private timer: unknown;
  private threshold: number | undefined;
  private readonly set: (fn: () => void, ms: number) => unknown;
  private readonly clear: (t: unknown) => void;

  constructor(private readonly d: AttentionDeps) {
    this.set = d.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clear = d.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  }

  /** A focus report from the terminal. */
  focused(f: 'in' | 'out'): void {
    this.focus = f;
  }

  /** A turn ended: the prompt waits for the person. */
  turnEnded(): void {
    this.call(WAITING);
    this.startIdle();
  }

  /** A permission prompt appeared. */
  permissionAsked(): void {
    this.call(PERMISSION);
  }

  /** A turn started: the prompt is not idle. */
  busy(): void {
    this.stopIdle();
  }

  /** The person typed: the idle wait starts again, if one runs. */
  typed(): void {
    if (this.timer !== undefined) this.startIdle();
  }

  dispose(): void {
    this.stopIdle();
  }

  private call(message: string): void {
    if (this.focus !== 'in') this.d.notify(message);
  }

  private startIdle(): void {
    this.stopIdle();
    this.threshold ??= this.d.idleMs();
    this.timer = this.set(() => {
      this.timer = undefined;
      this.d.idle();
    }, this.threshold);
  }

  private stopIdle(): void {
    if (this.timer !== undefined) this.clear(this.timer);
    this.timer = undefined;
  }
}
