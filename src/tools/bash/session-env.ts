/**
 * CLAUDE_ENV_FILE, as Claude Code has it: SessionStart, Setup and CwdChanged hooks may write
 * `export NAME=value` lines to the file that variable names, and every later Bash command of the
 * session runs them first (nvm, direnv, a virtualenv). The files live in one folder per session and
 * are read in the order the hooks ran; their own output is not part of the command's.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { shellQuote } from '../../sandbox/index.js';

export function sessionEnvDir(wicketHome: string, sessionId: string): string {
  return path.join(wicketHome, 'session-env', sessionId.replace(/[^\w.-]/g, '_') || 'default');
}

/** Shell lines that source the files the hooks wrote; '' when there are none. */
export function sessionEnvPreamble(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.sh'))
      .sort();
  } catch {
    return '';
  }
  return names.map((n) => `. ${shellQuote(path.join(dir, n))} >/dev/null 2>&1; `).join('');
}
