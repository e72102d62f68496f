/**
 * Notifications, as Claude Code gives them: when a turn ends (wicket waits for the person) and when a
 * permission prompt appears, the terminal's notification by `preferredNotifChannel` (notify.ts); and
 * once the prompt has waited `messageIdleNotifThresholdMs` (~/.claude.json, default 60 s) after a turn,
 * the Notification hook with `idle_prompt` (the permission prompt's is fired where it is asked).
 */
import { useStdout } from 'ink';
import { useEffect, useRef } from 'react';
import type { Hooks } from '../../hooks/types.js';
import { readJsonObject } from '../../settings/global-config.js';
import { globalConfigPath } from '../../settings/paths.js';
import { notifySequence } from '../notify.js';
import type { NotifChannel } from '../preferences.js';

const IDLE_MS = 60_000;
const WAITING = 'wicket is waiting for your input';

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
  const was = useRef({ working: d.working, asks: d.asks });
  const idleMs = useRef<number | undefined>(undefined);
  const notify = (message: string) => {
    const seq = notifySequence(d.channel, 'wicket', message, d.env);
    if (seq && stdout.isTTY) stdout.write(seq);
  };
  useEffect(() => {
    const before = was.current;
    was.current = { working: d.working, asks: d.asks };
    if (d.asks > before.asks) notify('wicket needs your permission');
    if (!before.working || d.working) return;
    notify(WAITING);
    idleMs.current ??= idleThreshold(d.home, d.env);
    const timer = setTimeout(() => {
      d.hooks.notification?.({ message: WAITING, notificationType: 'idle_prompt' }, new AbortController().signal).catch(() => undefined);
    }, idleMs.current);
    return () => clearTimeout(timer);
  }, [d.working, d.asks]);
}
