/**
 * /resume and /branch in the app: the picker, or the session named, or a new session holding this
 * conversation. The app does not change sessions in place: it ends, and runs again on the chosen
 * session (ui/run-app.tsx), so that everything a session owns (its id, hooks, checkpoints, MCP
 * servers) starts as for `wicket --resume`.
 */
import { useState } from 'react';
import { findSession, type SessionPlaces, type SessionSummary } from '../../session/session-list.js';
import type { TranscriptWriter } from '../../session/transcript.js';
import type { AgentHandle } from './use-agent.js';

/** Where the app goes next: the session file to resume, as itself or as a new session (a fork). */
export interface SessionSwitch {
  file: string;
  fork: boolean;
}

export interface SessionSwitchDeps {
  places?: SessionPlaces;
  transcript?: TranscriptWriter;
  agent: AgentHandle;
  onSwitch?: (to: SessionSwitch) => void;
  quit: () => void;
}

export function useSessionSwitch(d: SessionSwitchDeps) {
  const [picking, setPicking] = useState(false);
  const info = d.agent.info;
  const go = (to: SessionSwitch) => {
    if (!d.onSwitch) return info('Sessions cannot be switched here.', 'warning');
    d.onSwitch(to);
    d.quit();
  };
  const idle = (command: string) => {
    if (!d.agent.busy()) return true;
    info(`Interrupt the current run (esc) before /${command}.`, 'warning');
    return false;
  };
  const openResume = (query?: string) => {
    if (!idle('resume')) return;
    if (!d.places) return info('Saved sessions are not available here.', 'warning');
    if (!query) return setPicking(true);
    const file = findSession(query, d.places);
    if (file) go({ file, fork: false });
    else info(`No saved session "${query}" (by id or name). /resume without a name lists them.`, 'warning');
  };
  const branch = () => {
    if (!idle('branch')) return;
    if (d.transcript) go({ file: d.transcript.file, fork: true });
  };
  return {
    picking,
    openResume,
    branch,
    choose: (s: SessionSummary, fork: boolean) => {
      setPicking(false);
      go({ file: s.file, fork });
    },
    cancel: () => setPicking(false),
  };
}
