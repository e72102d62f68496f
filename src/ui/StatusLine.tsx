/**
 * The status line: while working, a spinner with elapsed time, tokens and "esc to interrupt";
 * always, the permission mode and the model. The spinner's timer lives in its own component, so
 * only that line re-renders on each tick, and no timer runs while idle.
 */
import { Box, Text } from 'ink';
import React, { useEffect, useState } from 'react';
import type { PermissionMode } from '../base/permission-modes.js';
import { symbols } from './theme.js';
import type { RunStatus } from './types.js';
import { useView } from './view-context.js';

export interface StatusLineProps {
  readonly status: RunStatus;
  readonly model: string;
  readonly mode: PermissionMode;
  /** A short notice that replaces the hints (e.g. "Press Ctrl-C again to exit"). */
  readonly notice?: string;
  /** Prompts typed while working, sent when the run ends. */
  readonly queued?: number;
  /** Freeze the clock (tests). */
  readonly now?: () => number;
}

const MODE_LABEL: Record<PermissionMode, string> = {
  default: 'default mode',
  acceptEdits: '⏵⏵ accept edits on',
  plan: '⏸ plan mode on',
  bypassPermissions: '⏵⏵ bypass permissions on',
  dontAsk: "⏵⏵ don't ask on",
};

export function modeLabel(mode: PermissionMode): string {
  return MODE_LABEL[mode];
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
}

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}

export function StatusLine({ status, model, mode, notice, queued = 0, now = Date.now }: StatusLineProps): React.ReactElement {
  const { theme } = useView();
  return (
    <Box flexDirection="column">
      {status.working ? <WorkingLine status={status} now={now} queued={queued} /> : null}
      <Box justifyContent="space-between">
        <Text
          color={notice ? theme.color('warn') : mode === 'default' ? undefined : theme.color('mode')}
          dimColor={!notice && mode === 'default'}
          wrap="truncate-end"
        >
          {notice ?? `${modeLabel(mode)} (shift+tab to cycle)`}
        </Text>
        <Text dimColor wrap="truncate-start">
          {model}
        </Text>
      </Box>
    </Box>
  );
}

function WorkingLine({ status, now, queued }: { status: RunStatus; now: () => number; queued: number }): React.ReactElement {
  const { theme } = useView();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 100);
    return () => clearInterval(timer);
  }, []);
  const frame = symbols.spinner[tick % symbols.spinner.length];
  const parts = [formatElapsed(now() - status.startedAt)];
  if (status.tokens > 0) parts.push(`↓ ${formatTokens(status.tokens)} tokens`);
  if (status.retrying) parts.push(status.retrying);
  parts.push('esc to interrupt');
  if (queued > 0) parts.push(`${queued} queued`);
  // Separate texts: the spinner changes ten times a second, the counts about once.
  return (
    <Box>
      <Text color={theme.color('accent')}>{`${frame} ${status.activity ? `${status.activity}…` : 'Working…'} `}</Text>
      <Text dimColor>{`(${parts.join(' · ')})`}</Text>
    </Box>
  );
}
