/**
 * Notifications, as Claude Code gives them (attention.ts): when a turn ends (wicket waits for the
 * person) and when a permission prompt appears, the terminal's notification by `preferredNotifChannel`
 * (notify.ts) while the terminal does not have focus; and once the prompt has waited
 * `messageIdleNotifThresholdMs` (~/.claude.json, default 60 s) after a turn with no key typed, the
 * Notification hook with `idle_prompt` (the permission prompt's is fired where it is asked).
 */
import { useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import type { Hooks } from '../../hooks/types.js';
import { readJsonObject } from '../../settings/global-config.js';
import { globalConfigPath } from '../../settings/paths.js';
import { Attention, WAITING } from '../attention.js';
import { notifySequence } from '../notify.js';
import type { NotifChannel } from '../preferences.js';
import { useTerminalInput } from './use-terminal-input.js';

const IDLE_MS = 60_000;

export interface NotifyDeps {
  working: boolean;
  asks: number;
  channel: NotifChannel;
  env: Record<string, string | undefined>;
  hooks: Pick<Hooks, 'notification'>;
  home: string;
}

/** `messageIdleNotifThresholdMs` from ~/.claude.json, else 60 s. */
export function idleThreshold(home: string, env: Record<string, string | undefined>): number {
  const v = readJsonObject(globalConfigPath(home, env.CLAUDE_CONFIG_DIR || undefined)).messageIdleNotifThresholdMs;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : IDLE_MS;
}

export function useNotifications(d: NotifyDeps): void {
  const { stdout } = useStdout();
  const deps = useRef(d);
  deps.current = d;
  const attention = useRef<Attention | undefined>(undefined);
  attention.current ??= new Attention({
    notify: (message) => {
      const seq = notifySequence(deps.current.channel, 'wicket', message, deps.current.env);
      if (seq && stdout.isTTY) stdout.write(seq);
    },
    idle: () => {
      deps.current.hooks.notification?.({ message: WAITING, notificationType: 'idle_prompt' }, new AbortController().signal).catch(() => undefined);
    },
    idleMs: () => idleThreshold(deps.current.home, deps.current.env),
  });
  const a = attention.current;
  useTerminalInput({ onFocus: (f) => a.focused(f), onKey: () => a.typed() });
  const was = useRef({ working: d.working, asks: d.asks });
  useEffect(() => {
    const before = was.current;
    was.current = { working: d.working, asks: d.asks };
    if (d.asks > before.asks) a.permissionAsked();
    if (d.working && !before.working) a.busy();
    if (before.working && !d.working) a.turnEnded();
  }, [d.working, d.asks]);
  useEffect(() => () => a.dispose(), []);
}
