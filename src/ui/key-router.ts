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
}

export const KeyRouterContext = React.createContext<KeyRouter | undefined>(undefined);

/** For the app: one listener that hands each key to the input that claimed it last. */
export function useKeyRouter(): KeyRouter {
  const router = useRef<KeyRouter>({}).current;
  useInput((input, key) => router.current?.(input, key));
  return router;
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
