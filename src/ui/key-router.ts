/**
 * Which input on screen receives the keys: the prompt or the history search. Ink's `useInput`
 * starts listening in an effect, after the new input is already drawn, and the old one stops in
 * the same pass, so a key typed in between (a fast typist, a paste, a busy machine) reached an
 * input that had let go and was lost. Here the app listens once, and the input being drawn claims
 * the keys as it renders, so there is no gap between two inputs.
 */
import { useInput, type Key } from 'ink';
import React, { useContext, useEffect, useRef } from 'react';

type OnKey = (input: string, key: Key) => void;

export interface KeyRouter {
  current?: OnKey;
  /** The prompt is inside a bracketed paste: its keys are text, never bindings. */
  pasting?: boolean;
}

/** Sees each key first (the app's bindings); true when it took the key. */
type Before = (input: string, key: Key, router: KeyRouter) => boolean;

let lastKeyAt = 0;

/** Milliseconds since the app last read a key (work that can wait, such as a snapshot scan ahead, waits for a pause). */
export function sinceLastKey(now = Date.now()): number {
  return now - lastKeyAt;
}

export const KeyRouterContext = React.createContext<KeyRouter | undefined>(undefined);

/** For the app: one listener that offers each key to `before` (the key bindings), then to the input that claimed it last. */
export function useKeyRouter(before?: Before): KeyRouter {
  const router = useRef<KeyRouter>({}).current;
  const first = useRef(before);
  first.current = before;
  useInput((input, key) => {
    lastKeyAt = Date.now();
    for (const [i, k] of router.pasting ? [[input, key] as const] : splitBurst(input, key)) {
      if (!router.pasting && first.current?.(i, k, router)) continue;
      router.current?.(i, k);
    }
  });
  return router;
}

/** Control keys (Ctrl+letter) as Ink reports them: the letter, with ctrl. */
const CONTROL = /[\x01-\x08\x0b\x0c\x0e-\x1a]/;

/**
 * Keys read together (typed while the app was busy) arrive as one text: a Ctrl+letter inside it is
 * split out as the key it is, so "look at" and Ctrl+V stay two things. Escape sequences and pastes
 * are left whole.
 */
export function splitBurst(input: string, key: Key): Array<readonly [string, Key]> {
  if (input.length < 2 || input.includes('\x1b') || !CONTROL.test(input)) return [[input, key]];
  const out: Array<readonly [string, Key]> = [];
  let text = '';
  for (const ch of input) {
    const code = ch.charCodeAt(0);
    if (!CONTROL.test(ch)) {
      text += ch;
      continue;
    }
    if (text) out.push([text, { ...key, ctrl: false }]);
    text = '';
    out.push([String.fromCharCode(code + 96), { ...key, ctrl: true }]);
  }
  if (text) out.push([text, { ...key, ctrl: false }]);
  return out;
}

/**
 * For an input: receive the keys while it is on screen and active. Without a router (an input
 * drawn alone, as in tests), it listens itself.
 */
export function useKeys(onKey: OnKey, isActive = true): void {
  const router = useContext(KeyRouterContext);
  const mine = useRef(onKey);
  mine.current = onKey;
  const claim = useRef<OnKey>((input, key) => mine.current(input, key)).current;
  if (router && isActive) router.current = claim;
  else if (router && router.current === claim) router.current = undefined;
  useEffect(
    () => () => {
      if (router?.current === claim) router.current = undefined;
    },
    [],
  );
  useInput(onKey, { isActive: isActive && !router });
}
