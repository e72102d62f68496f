/**
 * The session's language servers: one per server configuration and workspace folder, started on the
 * first file it serves, stopped with the session. A server that is not installed or dies is a
 * warning, once, and its files go without; nothing here ends a turn. The client itself (server.ts,
 * queries.ts) sits in the protocol library's bundle: a session that starts no server never loads it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DiagnosticsReport, LspAccess, LspAnswer, LspQuery, LspServerConfig, LspServerState } from '../base/lsp.js';
import { findCommand } from './find-command.js';
import { serverFor } from './config.js';
import type { LspServer } from './server.js';
import { diagnosticsReport, newErrors } from './new-errors.js';
import type { Diagnostic } from './diagnostics-store.js';
import { lspProtocolLib } from './protocol-lib.js';

export interface LspManagerOptions {
  /** Every configured server, in the order they are chosen. */
  servers: readonly LspServerConfig[];
  projectRoot: string;
  additionalDirs: readonly string[];
  env: Record<string, string | undefined>;
  /** The project's node_modules/.bin may provide servers (a trusted workspace). */
  trusted: boolean;
  /** How long an edit waits for the server's diagnostics. */
  diagnosticsTimeoutMs: number;
  /** false: edits get no diagnostics (the LSP tool still answers). */
  diagnostics: boolean;
}

export class LspManager implements LspAccess {
  private readonly running = new Map<string, LspServer>();
  /** Servers whose command is not installed: name → why. */
  private readonly missing = new Map<string, string>();
  private readonly warned = new Set<string>();
  private pendingWarnings: string[] = [];
  /** Each document's errors as they stood before the change now under way. */
  private readonly baselines = new Map<string, Diagnostic[] | undefined>();
  /** The diagnostics last had of each document, at which version. */
  private readonly seen = new Map<string, { version: number; items: Diagnostic[] }>();
  private readonly onExit = () => {
    for (const s of this.running.values()) s.killNow();
  };

  constructor(private readonly o: LspManagerOptions) {
    process.once('exit', this.onExit);
  }

  /** Warnings since the last call (a server missing or crashed), each said once per session. */
  takeWarnings(): string[] {
    for (const s of this.running.values()) if (s.status === 'crashed') this.warnOnce(`crashed:${s.config.name}:${s.folder}`, crashText(s));
    const out = this.pendingWarnings;
    this.pendingWarnings = [];
    return out;
  }

  private warnOnce(key: string, text: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.pendingWarnings.push(text);
  }

  async changedOpenFiles(): Promise<string[]> {
    const running = [...this.running.values()].filter((s) => s.status === 'running');
    return (await Promise.all(running.map((s) => s.changedDocs()))).flat();
  }

  serves(file: string): boolean {
    const found = serverFor(this.o.servers, file);
    return Boolean(found && !this.missing.has(found.config.name));
  }

  /** The running (or starting) server for a file, made on first need; undefined when none serves it. */
  private serverOf(file: string): { server: LspServer; languageId: string } | undefined {
    const found = serverFor(this.o.servers, file);
    if (!found) return undefined;
    const { config, languageId } = found;
    if (this.missing.has(config.name)) return undefined;
    const folder = this.folderOf(file);
    const key = `${config.name}\u0000${folder}`;
    let server = this.running.get(key);
    if (!server) {
      const executable = findCommand(config.command, { folder, projectRoot: this.o.projectRoot, pathVar: this.o.env.PATH, trusted: this.o.trusted });
      if (!executable) {
        const why = `${config.command} is not installed (not on the PATH${this.o.trusted ? ' or in node_modules/.bin' : ''})`;
        this.missing.set(config.name, why);
        this.warnOnce(
          `missing:${config.name}`,
          `Language server "${config.name}" unavailable: ${why}. Files ${extensions(config)} get no diagnostics or LSP answers.`,
        );
        return undefined;
      }
      server = new (lspProtocolLib().LspServer)(config, { executable, folder, env: this.o.env });
      this.running.set(key, server);
    }
    if (server.status === 'crashed' || server.status === 'stopped') return undefined;
    return { server, languageId };
  }

  /** The workspace folder (project or added directory) that holds the file, else its own folder. */
  private folderOf(file: string): string {
    const roots = [this.o.projectRoot, ...this.o.additionalDirs].sort((a, b) => b.length - a.length);
    return roots.find((r) => file === r || file.startsWith(r.endsWith(path.sep) ? r : `${r}${path.sep}`)) ?? path.dirname(file);
  }

  touched(file: string): void {
    const s = this.serverOf(file);
    if (s) void s.server.sync(file, s.languageId);
  }

  async beforeChange(files: readonly string[]): Promise<void> {
    if (!this.o.diagnostics) return;
    const limit = this.o.diagnosticsTimeoutMs;
    await Promise.all(
      files.map(async (file) => {
        const s = this.serverOf(file);
        if (!s) return;
        const uri = pathToFileURL(file).href;
        const wasOpen = s.server.isOpen(file);
        const mark = s.server.diagnostics.mark();
        const opened = await withinMs(s.server.sync(file, s.languageId), limit);
        if (!opened) return;
        // What the last change left, when the file is still as it left it; else asked for (or waited for, once opened).
        const last = this.seen.get(uri);
        const known = last?.version === opened.version ? last.items : wasOpen && !s.server.canPull() ? s.server.diagnostics.current(uri) : undefined;
        const items = known ?? (await this.errorsOf(s.server, opened, mark, limit));
        if (items) this.seen.set(uri, { version: opened.version, items });
        this.baselines.set(uri, items);
      }),
    );
  }

  async afterChange(files: readonly string[], signal: AbortSignal): Promise<DiagnosticsReport | undefined> {
    if (!this.o.diagnostics) return undefined;
    const limit = this.o.diagnosticsTimeoutMs;
    const found = await Promise.all(
      files.map(async (file) => {
        const s = this.serverOf(file);
        if (!s) return { file, errors: [] };
        const uri = pathToFileURL(file).href;
        const before = this.baselines.get(uri) ?? this.seen.get(uri)?.items ?? s.server.diagnostics.current(uri);
        this.baselines.delete(uri);
        const mark = s.server.diagnostics.mark();
        const synced = await withinMs(s.server.sync(file, s.languageId), limit);
        if (!synced) return { file, errors: [] };
        const after = await this.errorsOf(s.server, synced, mark, limit, signal);
        if (after) this.seen.set(uri, { version: synced.version, items: after });
        return { file, errors: after ? newErrors(before, after) : [] };
      }),
    );
    return diagnosticsReport(found, this.o.projectRoot);
  }

  /**
   * The document's diagnostics at this version: asked for when the server answers pulls (LSP 3.17, or
   * tsserver's own request through typescript-language-server), else waited for.
   */
  private async errorsOf(server: LspServer, doc: { uri: string; version: number }, mark: number, limit: number, signal?: AbortSignal) {
    const pulled = server.canPull() ? await bounded(limit, signal, (sig) => server.pullDiagnostics(doc.uri, sig)) : undefined;
    return pulled ?? server.diagnostics.waitAfter(doc.uri, mark, doc.version, limit, signal);
  }

  async query(q: LspQuery, signal: AbortSignal): Promise<LspAnswer> {
    const found = serverFor(this.o.servers, q.file);
    if (!found) return { kind: 'unavailable', reason: `No language server is configured for ${path.extname(q.file) || 'files without an extension'} files.` };
    const s = this.serverOf(q.file);
    if (!s) {
      const why = this.missing.get(found.config.name) ?? this.crashOf(found.config.name);
      return { kind: 'unavailable', reason: `The language server "${found.config.name}" is not available: ${why}.` };
    }
    const doc = await s.server.sync(q.file, s.languageId);
    if (!doc)
      return { kind: 'unavailable', reason: `The language server "${found.config.name}" could not open ${q.file}: ${s.server.error ?? 'it did not start'}.` };
    return lspProtocolLib().answerQuery(s.server, q, doc, signal, (d, uri) =>
      this.errorsOf(s.server, d, 0, this.o.diagnosticsTimeoutMs, signal).then((x) => x ?? s.server.diagnostics.current(uri)),
    );
  }

  private crashOf(name: string): string {
    for (const s of this.running.values()) if (s.config.name === name && s.error) return s.error;
    return 'it stopped';
  }

  servers(): LspServerState[] {
    const out: LspServerState[] = [];
    for (const config of this.o.servers) {
      const started = [...this.running.values()].filter((s) => s.config === config);
      const base = { name: config.name, command: config.command, source: config.source, extensions: Object.keys(config.extensionToLanguage) };
      if (!started.length) {
        const why = this.missing.get(config.name);
        out.push({ ...base, status: why ? 'missing' : 'idle', ...(why ? { error: why } : {}) });
      }
      for (const s of started) out.push({ ...base, folder: s.folder, status: s.status, ...(s.error ? { error: s.error } : {}) });
    }
    return out;
  }

  async stop(): Promise<void> {
    process.removeListener('exit', this.onExit);
    await Promise.all([...this.running.values()].map((s) => s.stop()));
  }
}

function extensions(config: LspServerConfig): string {
  return Object.keys(config.extensionToLanguage).join(' ');
}

function crashText(s: LspServer): string {
  return `Language server "${s.config.name}" (${s.config.command}) stopped working: ${s.error ?? 'it crashed'}. Files ${extensions(s.config)} get no diagnostics or LSP answers for the rest of the session.`;
}

/** `fn` with a signal that aborts after `ms` or with `outer`. */
async function bounded<T>(ms: number, outer: AbortSignal | undefined, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  const onAbort = () => ctl.abort();
  outer?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(ctl.signal);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

async function withinMs<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
