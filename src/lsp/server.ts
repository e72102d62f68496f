/**
 * One language server process for one workspace folder, spoken to over stdio with
 * vscode-languageserver-protocol: started on first use, initialized, told of the documents the
 * session opens and changes, and listened to for `textDocument/publishDiagnostics`. It never throws
 * into a turn: a start that fails or a process that dies leaves it `missing` or `crashed`, with the
 * reason in `error`, and every request after that answers undefined.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProtocolConnection } from 'vscode-languageserver-protocol';
import type { LspServerConfig, LspServerStatus } from '../base/lsp.js';
import { errorMessage } from '../base/errors.js';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { CLIENT_CAPABILITIES } from './capabilities.js';
import { TS_SERVER_REQUEST, tsserverDiagnostics } from './ts-pull.js';
import { DiagnosticsStore, type Diagnostic } from './diagnostics-store.js';

const DEFAULT_STARTUP_MS = 30_000;

type ServerCapabilities = { diagnosticProvider?: unknown; executeCommandProvider?: { commands?: string[] } };

export interface ServerDeps {
  /** The command's absolute path, found beforehand. */
  executable: string;
  folder: string;
  env: Record<string, string | undefined>;
}

export class LspServer {
  status: LspServerStatus = 'starting';
  error?: string;
  readonly diagnostics = new DiagnosticsStore();
  private child?: ChildProcess;
  private conn?: ProtocolConnection;
  private ready?: Promise<boolean>;
  private readonly docs = new Map<string, { version: number; text: string }>();
  private stopping = false;
  /** It answers `textDocument/diagnostic` (LSP 3.17 pull diagnostics): asked instead of waited for. */
  pulls = false;
  /** The commands it runs through `workspace/executeCommand`. */
  commands = new Set<string>();

  constructor(
    readonly config: LspServerConfig,
    private readonly deps: ServerDeps,
  ) {}

  get folder(): string {
    return this.deps.folder;
  }

  /** Resolves true once initialized; false when it could not start. Started once. */
  start(): Promise<boolean> {
    this.ready ??= this.launch().catch((err) => {
      this.fail('crashed', errorMessage(err));
      return false;
    });
    return this.ready;
  }

  private async launch(): Promise<boolean> {
    const child = spawn(this.deps.executable, this.config.args, {
      cwd: this.deps.folder,
      env: { ...this.deps.env, ...this.config.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr?.resume();
    child.stdin?.on('error', () => {});
    const exited = new Promise<false>((resolve) => {
      child.once('error', (err) => {
        this.fail('crashed', errorMessage(err));
        resolve(false);
      });
      child.once('exit', (code, signal) => {
        if (!this.stopping) this.fail('crashed', `exited (${signal ?? `code ${code}`})`);
        resolve(false);
      });
    });
    const conn = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    this.conn = conn;
    this.answerServerRequests(conn);
    conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; version?: number; diagnostics: Diagnostic[] }) => this.diagnostics.publish(p));
    conn.onError(() => {});
    conn.onClose(() => {
      if (!this.stopping) this.fail('crashed', 'the connection closed');
    });
    conn.listen();
    const folderUri = pathToFileURL(this.deps.folder).href;
    const init = conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: folderUri,
      rootPath: this.deps.folder,
      workspaceFolders: [{ uri: folderUri, name: path.basename(this.deps.folder) }],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: this.config.initializationOptions ?? {},
      clientInfo: { name: 'wicket' },
    });
    const limit = this.config.startupTimeout ?? DEFAULT_STARTUP_MS;
    const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), limit).unref());
    const first = await Promise.race([
      init.then((r) => {
        const caps = (r as { capabilities?: ServerCapabilities } | undefined)?.capabilities;
        this.pulls = Boolean(caps?.diagnosticProvider);
        this.commands = new Set(caps?.executeCommandProvider?.commands ?? []);
        return 'ok' as const;
      }),
      exited,
      timer,
    ]);
    if (first !== 'ok') {
      if (first === 'timeout') this.fail('crashed', `did not answer initialize within ${limit} ms`);
      this.kill();
      return false;
    }
    void conn.sendNotification('initialized', {});
    if (this.config.settings !== undefined) void conn.sendNotification('workspace/didChangeConfiguration', { settings: this.config.settings });
    this.status = 'running';
    return true;
  }

  private answerServerRequests(conn: ProtocolConnection): void {
    const settings = (this.config.settings ?? {}) as Record<string, unknown>;
    conn.onRequest('workspace/configuration', (p: { items?: Array<{ section?: string }> }) =>
      (p.items ?? []).map((item) => (item.section ? sectionOf(settings, item.section) : settings) ?? null),
    );
    conn.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(this.deps.folder).href, name: path.basename(this.deps.folder) }]);
    conn.onRequest('client/registerCapability', () => null);
    conn.onRequest('client/unregisterCapability', () => null);
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('window/showMessageRequest', () => null);
    conn.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'wicket applies no edits from a language server' }));
  }

  /** The document at its content on disk (opened once; later calls send the change when it differs). */
  async sync(file: string, languageId: string, text?: string): Promise<{ uri: string; version: number } | undefined> {
    if (!(await this.start()) || !this.conn) return undefined;
    const uri = pathToFileURL(file).href;
    const content = text ?? (await readFile(file, 'utf8').catch(() => undefined));
    if (content === undefined) return undefined;
    const doc = this.docs.get(uri);
    if (!doc) {
      this.docs.set(uri, { version: 1, text: content });
      void this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text: content } });
      return { uri, version: 1 };
    }
    if (doc.text === content) return { uri, version: doc.version };
    doc.version += 1;
    doc.text = content;
    void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [{ text: content }] });
    void this.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
    return { uri, version: doc.version };
  }

  /** Whether its diagnostics can be asked for (LSP pull, or tsserver's own request) rather than waited for. */
  canPull(): boolean {
    return this.pulls || this.commands.has(TS_SERVER_REQUEST);
  }

  /** The document's diagnostics asked for (LSP pull, else tsserver's request); undefined when it cannot or did not answer. */
  async pullDiagnostics(uri: string, signal: AbortSignal): Promise<Diagnostic[] | undefined> {
    if (this.pulls) {
      const r = await this.request<{ kind?: string; items?: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } }, signal);
      if (r?.kind === 'full' && Array.isArray(r.items)) return r.items;
    }
    if (this.commands.has(TS_SERVER_REQUEST)) return tsserverDiagnostics((m, p, s) => this.request(m, p, s), uri, signal);
    return undefined;
  }

  /** Open documents whose file on disk now holds something else. */
  async changedDocs(): Promise<string[]> {
    const out: string[] = [];
    for (const [uri, doc] of this.docs) {
      const file = fileURLToPath(uri);
      const now = await readFile(file, 'utf8').catch(() => undefined);
      if (now !== undefined && now !== doc.text) out.push(file);
    }
    return out;
  }

  isOpen(file: string): boolean {
    return this.docs.has(pathToFileURL(file).href);
  }

  async request<T>(method: string, params: unknown, signal: AbortSignal): Promise<T | undefined> {
    if (!(await this.start()) || !this.conn) return undefined;
    const pending = this.conn.sendRequest(method, params) as Promise<T>;
    const aborted = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    const died = this.diagnostics.closed.then(() => undefined);
    return Promise.race([pending, aborted, died]);
  }

  private fail(status: 'missing' | 'crashed', why: string): void {
    if (this.status === 'crashed' || this.status === 'stopped') return;
    this.status = status;
    this.error = why;
    this.diagnostics.close();
  }

  private kill(): void {
    try {
      this.child?.kill();
    } catch {
      // already gone
    }
  }

  /** Asks it to shut down, and kills it when it does not go within a moment. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const running = this.status === 'running' && this.conn;
    this.status = 'stopped';
    this.diagnostics.close();
    if (running && this.conn) {
      const bye = this.conn.sendRequest('shutdown').then(() => this.conn?.sendNotification('exit'));
      await Promise.race([bye.catch(() => {}), new Promise((r) => setTimeout(r, 500).unref())]);
    }
    this.conn?.dispose();
    this.kill();
  }

  /** For process exit: no waiting. */
  killNow(): void {
    this.stopping = true;
    this.kill();
  }
}

function sectionOf(settings: Record<string, unknown>, section: string): unknown {
  let at: unknown = settings;
  for (const part of section.split('.')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}
