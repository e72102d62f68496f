/** The rows of the session picker: what each saved session is shown as, and which match what is typed. */
import type { SessionSummary } from '../session/session-list.js';
import { loadSession } from '../session/transcript-read.js';
import { conversationText } from './commands/session-info.js';

/** "just now", "12m ago", "3h ago", "5d ago". */
export function age(mtimeMs: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - mtimeMs) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** What a session is called in the list: its name, else its first prompt. */
export function label(s: SessionSummary): string {
  return s.title ?? s.firstPrompt ?? '(no prompt)';
}

/** The line under the label: age, messages, branch (and the folder, when it is another project's). */
export function details(s: SessionSummary, cwd: string, now = Date.now()): string {
  const parts = [age(s.mtimeMs, now), `${s.messageCount} message${s.messageCount === 1 ? '' : 's'}`];
  if (s.gitBranch) parts.push(s.gitBranch);
  if (s.cwd && s.cwd !== cwd) parts.push(s.cwd);
  return parts.join(' · ');
}

/** The sessions whose name, first prompt, branch, folder or id hold every word typed (case aside). */
export function matching(sessions: readonly SessionSummary[], query: string): SessionSummary[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...sessions];
  return sessions.filter((s) => {
    const text = [s.title, s.firstPrompt, s.gitBranch, s.cwd, s.id].filter(Boolean).join(' ').toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The end of a session's conversation as text lines, for the preview (at most `rows`). */
export function previewLines(s: SessionSummary, rows: number): string[] {
  try {
    const lines = conversationText(loadSession(s.file).messages).trimEnd().split('\n');
    return lines.slice(-Math.max(1, rows));
  } catch {
    return ['(this session cannot be read)'];
  }
}
