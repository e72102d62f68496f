/**
 * Keys to actions: the default bindings with the person's on top (a later binding of the same keys
 * in the same context wins; `null` unbinds), resolved in the contexts active now, the most specific
 * first. A chord's first keystroke waits for the next one.
 */
import { chordId, type BindingBlock, type Keystroke } from './parse.js';

export type Resolution =
  /** The keys are bound to this action. */
  | { kind: 'action'; action: string }
  /** The keys begin a chord: the next keystroke completes it. */
  | { kind: 'pending' }
  /** The person unbound these keys: nothing happens. */
  | { kind: 'unbound' }
  /** No binding: the key goes to whatever has the focus. */
  | { kind: 'none' };

export class Keymap {
  private readonly byContext = new Map<string, Map<string, string | null>>();
  private pending: Keystroke[] = [];

  constructor(blocks: readonly BindingBlock[]) {
    for (const b of blocks) {
      const m = this.byContext.get(b.context) ?? new Map<string, string | null>();
      for (const [keys, action] of b.bindings) m.set(keys, action);
      this.byContext.set(b.context, m);
    }
  }

  /** What `stroke` does in `contexts` (most specific first), given the keystrokes before it. */
  resolve(stroke: Keystroke, contexts: readonly string[]): Resolution {
    const chord = [...this.pending, stroke];
    const id = chordId(chord);
    for (const c of contexts) {
      const m = this.byContext.get(c);
      if (!m?.has(id)) continue;
      this.pending = [];
      const action = m.get(id);
      return action === null || action === undefined ? { kind: 'unbound' } : { kind: 'action', action };
    }
    const prefix = `${id} `;
    if (contexts.some((c) => [...(this.byContext.get(c)?.keys() ?? [])].some((k) => k.startsWith(prefix)))) {
      this.pending = chord;
      return { kind: 'pending' };
    }
    // A chord broken off: the keystroke counts on its own.
    if (this.pending.length) {
      this.pending = [];
      return this.resolve(stroke, contexts);
    }
    return { kind: 'none' };
  }

  /** Keys bound to `action` in `context`, as written in the file (for help texts). */
  keysFor(action: string, context: string): string[] {
    return [...(this.byContext.get(context) ?? [])].filter(([, a]) => a === action).map(([k]) => k);
  }
}
