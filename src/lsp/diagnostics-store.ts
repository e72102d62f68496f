/**
 * What a server published of each document (`textDocument/publishDiagnostics`), and waiting for the
 * publication that follows a change: the first one after it (for the version sent, when the server
 * says which), then a short quiet spell, since a server may publish a document's syntax errors and
 * its type errors apart. Waiting is always bounded.
 */
export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: number | string;
  source?: string;
  message: string;
}

interface Published {
  /** Counts publications of any document: a wait looks for one after the number it started at. */
  seq: number;
  version?: number;
  items: Diagnostic[];
}

/** After the first publication for a change, how long without another before the wait ends. */
const QUIET_MS = 250;

export class DiagnosticsStore {
  private seq = 0;
  private readonly byUri = new Map<string, Published>();
  private readonly listeners = new Set<() => void>();
  private end!: () => void;
  /** Resolves when the server is gone: waits end at once. */
  readonly closed = new Promise<void>((resolve) => {
    this.end = resolve;
  });

  publish(p: { uri: string; version?: number; diagnostics: Diagnostic[] }): void {
    this.seq += 1;
    this.byUri.set(p.uri, { seq: this.seq, ...(typeof p.version === 'number' ? { version: p.version } : {}), items: p.diagnostics ?? [] });
    for (const l of [...this.listeners]) l();
  }

  close(): void {
    this.end();
  }

  /** The publication counter now: pass it to `waitAfter` to wait for what comes next. */
  mark(): number {
    return this.seq;
  }

  current(uri: string): Diagnostic[] | undefined {
    return this.byUri.get(uri)?.items;
  }

  /**
   * The document's diagnostics once the server published them after `mark` (for `version` or later
   * when it names versions) and went quiet; undefined when nothing came within `timeoutMs`.
   */
  async waitAfter(uri: string, mark: number, version: number | undefined, timeoutMs: number, signal?: AbortSignal): Promise<Diagnostic[] | undefined> {
    const fresh = () => {
      const p = this.byUri.get(uri);
      if (!p || p.seq <= mark) return false;
      return version === undefined || p.version === undefined || p.version >= version;
    };
    return new Promise((resolve) => {
      let quiet: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(deadline);
        clearTimeout(quiet);
        this.listeners.delete(onPublish);
        signal?.removeEventListener('abort', finish);
        resolve(fresh() ? this.byUri.get(uri)!.items : undefined);
      };
      const onPublish = () => {
        if (!fresh()) return;
        clearTimeout(quiet);
        quiet = setTimeout(finish, QUIET_MS);
      };
      const deadline = setTimeout(finish, timeoutMs);
      this.listeners.add(onPublish);
      signal?.addEventListener('abort', finish, { once: true });
      void this.closed.then(finish);
      onPublish();
    });
  }
}
