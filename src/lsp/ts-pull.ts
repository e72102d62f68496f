/**
 * typescript-language-server publishes a document's diagnostics only when they differ from the last
 * ones, so after an edit that leaves a file as clean as it was, nothing comes to wait for. It does
 * take tsserver requests through `workspace/executeCommand` (`typescript.tsserverRequest`): asking
 * tsserver for the file's syntactic and semantic diagnostics answers at once, either way.
 */
import type { Diagnostic } from './diagnostics-store.js';

export const TS_SERVER_REQUEST = 'typescript.tsserverRequest';

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
}

type Ask = <T>(method: string, params: unknown, signal: AbortSignal) => Promise<T | undefined>;

/** The file's diagnostics from tsserver itself; undefined when it did not answer. */
export async function tsserverDiagnostics(ask: Ask, uri: string, signal: AbortSignal): Promise<Diagnostic[] | undefined> {
  const one = async (command: string) => {
    const r = await ask<{ body?: TsDiagnostic[] } | TsDiagnostic[]>(
      'workspace/executeCommand',
      { command: TS_SERVER_REQUEST, arguments: [command, { file: uri }] },
      signal,
    ).catch(() => undefined);
    const list = Array.isArray(r) ? r : r?.body;
    return Array.isArray(list) ? list : undefined;
  };
  const [syntax, semantic] = await Promise.all([one('syntacticDiagnosticsSync'), one('semanticDiagnosticsSync')]);
  if (!syntax || !semantic) return undefined;
  return [...syntax, ...semantic].map((d) => ({
    range: { start: { line: d.start.line - 1, character: d.start.offset - 1 }, end: { line: d.end.line - 1, character: d.end.offset - 1 } },
    severity: d.category === 'warning' ? 2 : d.category === 'suggestion' ? 4 : d.category === 'message' ? 3 : 1,
    ...(d.code !== undefined ? { code: d.code } : {}),
    source: 'typescript',
    message: d.text,
  }));
}
