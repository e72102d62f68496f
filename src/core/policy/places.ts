/** Where a project's saved sessions are, for the policy commands: as a session there would look. */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { SessionPlaces } from '../../session/session-list.js';
import { wicketHomeDir } from '../../settings/paths.js';

export function projectPlaces(cwd: string, env: Record<string, string | undefined>): SessionPlaces {
  const home = env.HOME ?? homedir();
  return { configDir: env.CLAUDE_CONFIG_DIR || path.join(home, '.claude'), wicketHome: wicketHomeDir(home, env), cwd: realpathSync(cwd) };
}

/** `30d`, `12h`, `45m`, or a date: the time (ms) from which on calls count; undefined when it cannot be read. */
export function sinceTime(text: string, nowMs = Date.now()): number | undefined {
  const m = /^(\d+)\s*([dhm])$/.exec(text.trim());
  if (m) return nowMs - Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : t;
}
