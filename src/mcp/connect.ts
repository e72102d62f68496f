/**
 * One MCP server, connected with the MCP SDK: started (stdio) or reached (http, sse), initialised
 * within MCP_TIMEOUT, its tools, prompts and resources listed, and stopped again at the end of the
 * session. When the server says one of those lists changed (notifications/…/list_changed), it is
 * listed again. A server that fails says why in one sentence, with the end of what it wrote to stderr.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { useExtraCA } from '../api/extra-ca.js';
import { execaLib } from '../base/lib/execa-lib.js';
import type { McpTransportConfig } from './config.js';
import type { ElicitationHandler, ElicitationRequest } from './elicitation.js';
import { StoredOAuthProvider } from './oauth-provider.js';
import { hasStoredTokens } from './oauth-store.js';
import { mcpSdk } from './sdk-lib.js';
import type { SandboxedProgram } from '../sandbox/index.js';
import type { StdioSandbox } from './sandbox.js';
import { inputValidator } from '../base/schema-check.js';
import type { McpCallResult, McpConnection, McpListKind, McpResourceContents } from './types.js';
import { listers, ListWatch, type Lists } from './lists.js';

export interface McpConnectOptions {
  projectRoot: string;
  /** Environment for stdio servers (the process's, with the settings' `env`). */
  env: Record<string, string | undefined>;
  /** Time allowed to start and initialise (MCP_TIMEOUT). */
  timeoutMs: number;
  /** Time allowed for one tool call (MCP_TOOL_TIMEOUT); progress notifications restart it. */
  toolTimeoutMs: number;
  version: string;
  /** The server's name (a headersHelper sees it as CLAUDE_CODE_MCP_SERVER_NAME; OAuth records are kept under it). */
  name?: string;
  /** The OAuth store (oauth-store.ts): an http or sse server with tokens there connects with them. */
  oauthStore?: string;
  /** Answers the server's requests for the person's input; without it the client does not offer elicitation. */
  elicitation?: ElicitationHandler;
  /** Puts stdio servers in the sandbox (set when sandbox.enabled is on; mcp/sandbox.ts). */
  sandbox?: StdioSandbox | undefined;
}

/** The server answered 401: it wants a sign-in (or the stored one is no longer accepted). */
export class McpAuthRequiredError extends Error {}

export type Sdk = Awaited<ReturnType<typeof mcpSdk>>;
export type Transport =
  | InstanceType<Sdk['StdioClientTransport']>
  | InstanceType<Sdk['StreamableHTTPClientTransport']>
  | InstanceType<Sdk['SSEClientTransport']>
  | InstanceType<Sdk['WebSocketTransport']>;

const STDERR_TAIL = 2000;
/** How long a stdio server may take to leave once its stdin is closed, before it is sent SIGTERM. */
const EXIT_GRACE_MS = 300;

export async function connectServer(config: McpTransportConfig, opts: McpConnectOptions): Promise<McpConnection> {
  const sdk = await mcpSdk();
  const client = newClient(sdk, opts);
  const boxed = config.type === 'stdio' && opts.sandbox ? await inSandbox(config, opts.sandbox) : undefined;
  const started = boxed && config.type === 'stdio' ? { ...config, command: boxed.command, args: boxed.args } : config;
  const { transport, stderrTail } = makeTransport(sdk, await withHelperHeaders(started, opts), opts, storedAuth(config, opts));
  let closing = false;
  const lostListeners: Array<(why: string) => void> = [];
  // A sandboxed server's mount points go once it has exited (or, at the latest, shortly after close()).
  let exited!: () => void;
  const gone = new Promise<void>((resolve) => (exited = resolve));
  const cleanUp = () => boxed?.finish().catch(() => []);
  client.onclose = () => {
    exited();
    void cleanUp();
    if (!closing) for (const l of lostListeners.splice(0)) l(stderrTail() ? `the connection closed: ${stderrTail()}` : 'the connection closed');
  };
  const close = async () => {
    closing = true;
    await shutdown(client, transport);
    if (boxed) {
      await Promise.race([gone, new Promise((r) => setTimeout(r, EXIT_GRACE_MS * 5).unref())]);
      await cleanUp();
    }
  };
  let listed: Listed;
  try {
    listed = await connectAndList(client, transport, opts.timeoutMs);
  } catch (err) {
    await close().catch(() => {});
    if ((config.type === 'http' || config.type === 'sse') && isUnauthorized(sdk, err)) throw new McpAuthRequiredError(`${config.url} needs authentication`);
    throw new Error(describeFailure(err, config, opts.timeoutMs, stderrTail()));
  }
  return connection(sdk, client, listed.lists, listed.initial, { toolTimeoutMs: opts.toolTimeoutMs, close, onLost: (l) => void lostListeners.push(l) });
}

/** The client wicket connects with: it offers the project folder as its root, and elicitation when someone can answer. */
export function newClient(sdk: Sdk, opts: Pick<McpConnectOptions, 'version' | 'projectRoot' | 'elicitation' | 'name'>): InstanceType<Sdk['Client']> {
  const elicitation = opts.elicitation ? { elicitation: { form: {}, url: {} } } : {};
  const client = new sdk.Client({ name: 'wicket', version: opts.version }, { capabilities: { roots: {}, ...elicitation } });
  const root = { uri: pathToFileURL(opts.projectRoot).href, name: path.basename(opts.projectRoot) };
  client.setRequestHandler(sdk.ListRootsRequestSchema, async () => ({ roots: [root] }));
  if (opts.elicitation) answerElicitations(sdk, client, opts.name ?? '', opts.elicitation);
  return client;
}

type Listed = { lists: Lists; initial: Pick<McpConnection, McpListKind> };

/** Initialises the connection within the time allowed, then lists what the server offers. */
export async function connectAndList(
  client: InstanceType<Sdk['Client']>,
  transport: Parameters<InstanceType<Sdk['Client']>['connect']>[0],
  timeoutMs: number,
): Promise<Listed> {
  await withTimeout(client.connect(transport, { timeout: timeoutMs }), timeoutMs);
  const lists = listers(client, timeoutMs);
  const [tools, prompts, resources] = await Promise.all([lists.tools(), lists.prompts().catch(() => []), lists.resources().catch(() => [])]);
  return { lists, initial: { tools, prompts, resources } };
}

/** The server's command line, in the sandbox unless it may not be (then the reason is the failure). */
async function inSandbox(config: Extract<McpTransportConfig, { type: 'stdio' }>, sandbox: StdioSandbox): Promise<SandboxedProgram> {
  try {
    return await sandbox({ command: config.command, args: config.args, optOut: config.sandbox === false });
  } catch (err) {
    throw new Error(`cannot start in the sandbox: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The connection over a client that has connected and listed what the server offers. */
export function connection(
  sdk: Sdk,
  client: InstanceType<Sdk['Client']>,
  lists: Lists,
  initial: Pick<McpConnection, McpListKind>,
  o: Pick<McpConnectOptions, 'toolTimeoutMs'> & Pick<McpConnection, 'close' | 'onLost'>,
): McpConnection {
  const watch = new ListWatch(lists);
  const conn: McpConnection = {
    ...initial,
    hasResources: Boolean(client.getServerCapabilities()?.resources),
    listResources: async () => (conn.resources = await lists.resources()),
    readResource: async (uri, signal) => (await client.readResource({ uri }, { signal, timeout: o.toolTimeoutMs })).contents as McpResourceContents[],
    onListChanged: (l) => watch.listeners.push(l),
    getPrompt: async (name, args) => promptText(await client.getPrompt({ name, arguments: args }, { timeout: o.toolTimeoutMs })),
    instructions: client.getInstructions(),
    callTool: async (name, args, c) => {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        signal: c.signal,
        timeout: o.toolTimeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: c.onProgress,
      })) as McpCallResult;
      // A tool that changed the server's lists said so before answering: the next request sees them.
      await watch.settled();
      return result;
    },
    validator: async (schema) => inputValidator(sdk.Ajv, schema),
    onLost: o.onLost,
    close: o.close,
  };
  watch.start(sdk, client, conn);
  return conn;
}

/** `elicitation/create` goes to the handler (the SDK checks the request and the answer's shape); a URL step's completion too. */
function answerElicitations(sdk: Sdk, client: InstanceType<Sdk['Client']>, server: string, handler: ElicitationHandler): void {
  client.setRequestHandler(sdk.ElicitRequestSchema, async (request, extra) => {
    const p = request.params;
    const req: ElicitationRequest =
      p.mode === 'url'
        ? { server, message: p.message, mode: 'url', url: p.url, elicitationId: p.elicitationId }
        : { server, message: p.message, mode: 'form', requestedSchema: p.requestedSchema as Record<string, unknown> };
    return { ...(await handler.elicit(req, extra.signal)) };
  });
  client.setNotificationHandler(sdk.ElicitationCompleteNotificationSchema, (n) => handler.complete(server, n.params.elicitationId));
}

/** The OAuth provider of an http or sse server that has tokens stored: the SDK sends them, and refreshes them when they expire. */
function storedAuth(config: McpTransportConfig, opts: McpConnectOptions): StoredOAuthProvider | undefined {
  if (
    config.type === 'stdio' ||
    config.type === 'ws' ||
    !opts.oauthStore ||
    opts.name === undefined ||
    !hasStoredTokens(opts.oauthStore, opts.name, config.url)
  )
    return undefined;
  return new StoredOAuthProvider({ file: opts.oauthStore, name: opts.name, url: config.url, clientId: config.oauth?.clientId });
}

/** A 401: the SDK's UnauthorizedError (a sign-in is needed), or the server's answer when no provider was given. */
export function isUnauthorized(sdk: Sdk, err: unknown): boolean {
  return err instanceof sdk.UnauthorizedError || (err as { code?: unknown })?.code === 401;
}

export function makeTransport(
  sdk: Sdk,
  config: McpTransportConfig,
  opts: Pick<McpConnectOptions, 'env' | 'projectRoot'>,
  authProvider?: StoredOAuthProvider,
): { transport: Transport; stderrTail: () => string } {
  if (config.type === 'stdio') {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, config.env, { CLAUDE_PROJECT_DIR: opts.projectRoot });
    const transport = new sdk.StdioClientTransport({ command: config.command, args: config.args, env, cwd: opts.projectRoot, stderr: 'pipe' });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return { transport, stderrTail: () => tail.trim().split('\n').slice(-3).join(' / ') };
  }
  const url = new URL(config.url);
  if (config.type === 'ws') {
    useExtraCA(); // wss: the socket's TLS is made outside fetch
    return { transport: new sdk.WebSocketTransport(url, config.headers), stderrTail: () => '' };
  }
  const requestInit = { headers: config.headers };
  const transport =
    config.type === 'sse'
      ? new sdk.SSEClientTransport(url, { requestInit, authProvider })
      : new sdk.StreamableHTTPClientTransport(url, { requestInit, authProvider });
  return { transport, stderrTail: () => '' };
}

/** Headers a `headersHelper` command prints (a JSON object of strings), over the entry's own `headers`. */
export async function withHelperHeaders(config: McpTransportConfig, opts: McpConnectOptions): Promise<McpTransportConfig> {
  if (config.type === 'stdio' || !config.headersHelper) return config;
  const { execa } = await execaLib();
  const env = { ...opts.env, CLAUDE_CODE_MCP_SERVER_NAME: opts.name ?? '', CLAUDE_CODE_MCP_SERVER_URL: config.url };
  const r = await execa(config.headersHelper, {
    shell: true,
    cwd: opts.projectRoot,
    env,
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
    timeout: HEADERS_HELPER_TIMEOUT_MS,
  });
  if (r.timedOut) throw new Error(`headersHelper took longer than ${HEADERS_HELPER_TIMEOUT_MS / 1000} s`);
  if (r.exitCode !== 0) throw new Error(`headersHelper failed (exit ${r.exitCode ?? 'signal'}): ${String(r.stderr).trim().split('\n')[0] || 'no message'}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(r.stdout));
  } catch {
    throw new Error('headersHelper must print a JSON object of header names to string values');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
    throw new Error('headersHelper must print a JSON object of header names to string values');
  }
  return { ...config, headers: { ...config.headers, ...(parsed as Record<string, string>) } };
}

const HEADERS_HELPER_TIMEOUT_MS = 10_000;

function promptText(result: { messages: Array<{ content: unknown }> }): string {
  const part = (c: any): string =>
    c?.type === 'text' ? c.text : c?.type === 'resource' && typeof c.resource?.text === 'string' ? c.resource.text : c?.type ? `[${c.type} content]` : '';
  return result.messages
    .map((m) => (Array.isArray(m.content) ? m.content.map(part).join('\n') : part(m.content)))
    .filter(Boolean)
    .join('\n\n');
}

/** Closes the client; a stdio server still running shortly after its stdin closed is sent SIGTERM. */
async function shutdown(client: InstanceType<Sdk['Client']>, transport: Transport): Promise<void> {
  const pid = 'pid' in transport ? transport.pid : null;
  const closed = client.close().catch(() => {});
  await Promise.race([closed, new Promise((r) => setTimeout(r, EXIT_GRACE_MS).unref())]);
  if (pid) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

class TimeoutError extends Error {}

/** Whether the connection failed on its time limit (withTimeout's, or the SDK's own request timeout). */
export function isTimeout(err: unknown): boolean {
  return err instanceof TimeoutError || /timed out/i.test((err as Error | undefined)?.message ?? '');
}

/** What fetch's "fetch failed" wraps: the system error code (ECONNREFUSED…) or the deepest message. */
function rootCause(err: unknown): string {
  let last = 'no answer';
  for (
    let e = (err as { cause?: unknown }).cause as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return e.code;
    if (typeof e.message === 'string' && e.message) last = e.message;
  }
  return last;
}

export function describeFailure(err: unknown, config: McpTransportConfig, timeoutMs: number, stderr: string): string {
  const e = err as NodeJS.ErrnoException & { code?: unknown };
  const said = stderr ? ` (its stderr: ${stderr})` : '';
  if (err instanceof TimeoutError || /timed out/i.test(e?.message ?? '')) {
    return `did not finish starting within ${Math.round(timeoutMs / 1000)} s (MCP_TIMEOUT)${said}`;
  }
  if (config.type === 'stdio' && e?.code === 'ENOENT') return `cannot start ${JSON.stringify(config.command)}: command not found`;
  if (config.type === 'stdio' && e?.code === 'EACCES') return `cannot start ${JSON.stringify(config.command)}: permission denied`;
  const message = e instanceof Error ? e.message : String(err);
  if (config.type !== 'stdio' && message === 'fetch failed') return `cannot reach ${config.url} (${rootCause(err)})`;
  return `${message.replace(/^MCP error -?\d+: /, '')}${said}`;
}
