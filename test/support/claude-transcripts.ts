/**
 * A reader of Claude Code's session transcripts written from Claude Code's format alone (what the Agent
 * SDK's `listSessions` and `getSessionMessages` give), sharing no code with wicket's: sessions are the
 * `<id>.jsonl` files of `<config dir>/projects/<slug>/`; a session's messages are the `user` and
 * `assistant` records of the chain that ends at its last record, followed back through `parentUuid`;
 * one API reply may span several assistant records sharing `message.id`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

type Rec = Record<string, any>;

export interface SdkSessionInfo {
  sessionId: string;
  /** The custom title, else the first prompt. */
  summary: string;
  lastModified: number;
  cwd?: string;
  gitBranch?: string;
  customTitle?: string;
  firstPrompt?: string;
}

export interface SdkMessage {
  type: 'user' | 'assistant';
  uuid: string;
  session_id: string;
  message: { role: string; content: unknown };
}

function records(file: string): Rec[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Rec];
      } catch {
        return [];
      }
    });
}

/** The `user`/`assistant` records of the main chain, oldest first. */
export function getSessionMessages(file: string): SdkMessage[] {
  const recs = records(file);
  const byUuid = new Map(recs.filter((r) => typeof r.uuid === 'string').map((r) => [r.uuid as string, r]));
  const last = [...recs].reverse().find((r) => ['user', 'assistant', 'attachment', 'system'].includes(r.type) && r.uuid && !r.isSidechain);
  const chain: Rec[] = [];
  for (let r = last; r; r = r.parentUuid ? byUuid.get(r.parentUuid) : undefined) chain.unshift(r);
  return chain
    .filter((r) => r.type === 'user' || r.type === 'assistant')
    .map((r) => ({ type: r.type, uuid: r.uuid, session_id: r.sessionId, message: r.message }));
}

/** The messages as the API would get them: one reply's records joined, consecutive user records joined. */
export function apiMessages(file: string): Array<{ role: string; content: unknown[] }> {
  const out: Array<{ role: string; content: unknown[]; id?: string }> = [];
  for (const m of getSessionMessages(file)) {
    const content = typeof m.message.content === 'string' ? [{ type: 'text', text: m.message.content }] : (m.message.content as unknown[]);
    const prev = out[out.length - 1];
    if (prev && prev.role === m.message.role) prev.content.push(...content);
    else out.push({ role: m.message.role, content: [...content] });
  }
  return out.map(({ role, content }) => ({ role, content }));
}

export function listSessions(configDir: string, projectDir?: string): SdkSessionInfo[] {
  const root = path.join(configDir, 'projects');
  const dirs = projectDir ? [path.join(root, projectDir.replace(/[^a-zA-Z0-9]/g, '-'))] : readdirSync(root).map((d) => path.join(root, d));
  return dirs
    .flatMap((dir) => {
      try {
        return readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .map((f) => path.join(dir, f));
      } catch {
        return [];
      }
    })
    .map((file) => {
      const recs = records(file);
      const customTitle = [...recs].reverse().find((r) => r.type === 'custom-title')?.customTitle as string | undefined;
      const prompt = recs.find((r) => r.type === 'user' && !r.isMeta && (typeof r.message?.content === 'string' || r.message?.content?.[0]?.type === 'text'));
      const firstPrompt = prompt ? (typeof prompt.message.content === 'string' ? prompt.message.content : prompt.message.content[0].text) : undefined;
      const last = [...recs].reverse().find((r) => r.cwd);
      return {
        sessionId: path.basename(file, '.jsonl'),
        summary: customTitle ?? firstPrompt ?? '',
        lastModified: statSync(file).mtimeMs,
        ...(last?.cwd ? { cwd: last.cwd } : {}),
        ...(last?.gitBranch ? { gitBranch: last.gitBranch } : {}),
        ...(customTitle ? { customTitle } : {}),
        ...(firstPrompt ? { firstPrompt } : {}),
      };
    })
    .sort((a, b) => b.lastModified - a.lastModified);
}
