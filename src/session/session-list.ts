/**
 * The saved sessions: those of a project (Claude Code's folder for it, and an older wicket's), or of
 * every project; each with what a person recognises it by (its name or first prompt, when it was last
 * used, how many messages, on which branch), newest first. And one session found by id or by name.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { legacySessionsDir, legacySessionsRoot, projectSessionsDir, projectsRoot } from './paths.js';
import { readEntries, sessionFromEntries } from './transcript-read.js';

export interface SessionPlaces {
  /** Claude Code's folder (`$CLAUDE_CONFIG_DIR` or `~/.claude`). */
  configDir: string;
  wicketHome: string;
  /** The project's folder. */
  cwd: string;
}

/** A transcript file, before it is read. */
export interface SessionFile {
  id: string;
  file: string;
  mtimeMs: number;
  /** Written by an older wicket under its own folder. */
  legacy: boolean;
}

export interface SessionSummary extends SessionFile {
  /** Its name (`custom-title`), when it has one. */
  title?: string;
  firstPrompt?: string;
  messageCount: number;
  gitBranch?: string;
  /** The folder it last worked in. */
  cwd?: string;
}

/** The transcripts directly in `dir` (not sub-agents' `agent-*.jsonl`). */
function filesIn(dir: string, legacy: boolean): SessionFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    if (!name.endsWith('.jsonl') || name.startsWith('agent-')) return [];
    const file = path.join(dir, name);
    try {
      const st = statSync(file);
      return st.isFile() ? [{ id: name.slice(0, -'.jsonl'.length), file, mtimeMs: st.mtimeMs, legacy }] : [];
    } catch {
      return [];
    }
  });
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => path.join(dir, d.name));
  } catch {
    return [];
  }
}

/** The transcript files of this project (`all`: of every project), newest first; Claude Code's place wins over an older wicket's for one id. */
export function sessionFiles(places: SessionPlaces, all = false): SessionFile[] {
  const current = [...filesIn(projectSessionsDir(places.configDir, places.cwd), false), ...filesIn(legacySessionsDir(places.wicketHome, places.cwd), true)];
  const others = all
    ? [
        ...subfolders(projectsRoot(places.configDir)).flatMap((d) => filesIn(d, false)),
        ...subfolders(legacySessionsRoot(places.wicketHome)).flatMap((d) => filesIn(d, true)),
      ]
    : [];
  const seen = new Set<string>();
  const out: SessionFile[] = [];
  for (const f of [...current, ...others].sort((a, b) => Number(a.legacy) - Number(b.legacy))) {
    if (seen.has(f.id)) continue;
    seen.add(f.id);
    out.push(f);
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** What a transcript says of itself; undefined when it cannot be read or holds no conversation. */
export function summarize(f: SessionFile): SessionSummary | undefined {
  let entries: Record<string, unknown>[];
  try {
    entries = readEntries(f.file);
  } catch {
    return undefined;
  }
  let title: string | undefined;
  let firstPrompt: string | undefined;
  let gitBranch: string | undefined;
  for (const e of entries) {
    if (e.type === 'custom-title' && typeof e.customTitle === 'string') title = e.customTitle.trim() || undefined;
    if (typeof e.gitBranch === 'string' && e.gitBranch) gitBranch = e.gitBranch;
    if (firstPrompt === undefined && e.type === 'user' && e.isSidechain !== true) firstPrompt = promptText(e);
  }
  const saved = sessionFromEntries(entries);
  if (!saved.messages.length && firstPrompt === undefined) return undefined;
  return {
    ...f,
    ...(title ? { title } : {}),
    ...(firstPrompt ? { firstPrompt } : {}),
    messageCount: saved.messages.length,
    ...(gitBranch ? { gitBranch } : {}),
    ...(saved.cwd ? { cwd: saved.cwd } : {}),
  };
}

/** The text a person typed, of a user record: not tool results, not text Claude Code or wicket added (`<…>` tags), not a summary. */
function promptText(e: Record<string, unknown>): string | undefined {
  if (e.isMeta === true || e.isCompactSummary === true) return undefined;
  const content = (e.message as { content?: unknown } | undefined)?.content;
  const texts =
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((b) => (b && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string' ? [b.text as string] : []))
        : [];
  const text = texts.find((t) => t.trim() && !t.trimStart().startsWith('<'));
  return text?.replace(/\s+/g, ' ').trim();
}

/** The sessions of this project (`all`: of every project), newest first, each summarised. */
export function listSessions(places: SessionPlaces, all = false): SessionSummary[] {
  return sessionFiles(places, all).flatMap((f) => summarize(f) ?? []);
}

/**
 * The newest session of this project, for --continue. In the app (`interactive`), as in Claude Code,
 * a session print mode or the Agent SDK started (`entrypoint` sdk-cli, sdk-ts, sdk-py) is passed over.
 */
export function latestSessionFile(places: SessionPlaces, interactive = false): string | undefined {
  return sessionFiles(places).find((f) => !interactive || !SDK_ENTRYPOINTS.has(entrypointOf(f.file) ?? ''))?.file;
}

const SDK_ENTRYPOINTS = new Set(['sdk-cli', 'sdk-ts', 'sdk-py']);
const HEAD_BYTES = 64 * 1024;

/** How the session was started: the `entrypoint` its first records name (read from the file's head). */
function entrypointOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const head = buf.toString('utf8', 0, readSync(fd, buf, 0, HEAD_BYTES, 0));
    return /"entrypoint":"([^"]*)"/.exec(head)?.[1];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A session named by `-r`/`--resume`: by id in this project, then in every project; else by name
 * (`custom-title`, case aside), the newest with it in this project (as Claude Code, which looks for
 * a name in no other project). A path to a `.jsonl` file is taken as it is.
 */
export function findSession(query: string, places: SessionPlaces): string | undefined {
  const q = query.trim();
  if (!q) return undefined;
  if (q.endsWith('.jsonl') && existsSync(q)) return path.resolve(q);
  for (const all of [false, true]) {
    const hit = sessionFiles(places, all).find((f) => f.id === q);
    if (hit) return hit.file;
  }
  const name = q.toLowerCase();
  return listSessions(places).find((s) => s.title?.toLowerCase() === name)?.file;
}
