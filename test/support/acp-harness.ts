/**
 * Zed's ACP adapter (`@zed-industries/claude-agent-acp`) driving the BUILT wicket (`npm run build`
 * first) as its Claude Code executable (`CLAUDE_CODE_EXECUTABLE`), against the fake Messages API,
 * in a temporary project with a temporary HOME. The test is the editor: a real ACP client
 * (`@agentclientprotocol/sdk`) speaking to the adapter over its stdin/stdout.
 *
 *   const editor = await startEditor(t, { permission: () => 'allow' });
 *   const { sessionId } = await editor.conn.newSession({ cwd: t.project.dir, mcpServers: [] });
 *   const answer = await editor.conn.prompt({ sessionId, prompt: [{ type: 'text', text: 'Hi' }] });
 *   editor.text(sessionId) // what the editor streamed as agent_message_chunk
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Readable, Writable } from 'node:stream';
import {
  type Client,
  ClientSideConnection,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from '@agentclientprotocol/sdk';
import type { ApiProject } from './api-project.js';
import { BIN_PATH, cliEnv } from './run-cli.js';

const require = createRequire(import.meta.url);
/** The adapter's entry point (its package's `bin`). */
export const ACP_ADAPTER = require.resolve('@zed-industries/claude-agent-acp/dist/index.js');

/** What the editor answers to a permission request: an option id of the request, or `cancelled`. */
export type PermissionAnswer = 'allow' | 'allow_always' | 'reject' | 'cancelled' | (string & {});

export interface Editor {
  readonly conn: ClientSideConnection;
  readonly child: ChildProcess;
  /** Every session/update notification, in order. */
  readonly updates: SessionNotification[];
  /** Every session/request_permission the adapter sent, in order. */
  readonly permissions: RequestPermissionRequest[];
  /** The adapter's stderr (with wicket's, which the adapter's SDK passes on only in debug mode). */
  stderr(): string;
  /** The text streamed to the editor for this session (agent_message_chunk). */
  text(sessionId: string): string;
  /** The session/update kinds seen for this session, in order. */
  kinds(sessionId: string): string[];
  /** Ends the adapter (and, through it, wicket) and waits for it to exit. */
  close(): Promise<void>;
}

export interface EditorOptions {
  /** The editor's answer to each permission request (may wait: the request stays pending). */
  permission?: (req: RequestPermissionRequest) => PermissionAnswer | Promise<PermissionAnswer>;
  env?: Record<string, string | undefined>;
}

/** Starts the adapter with wicket as its executable and connects an ACP client to it (initialize done). */
export async function startEditor(t: ApiProject, opts: EditorOptions = {}): Promise<Editor> {
  const env = { ...cliEnv({ home: t.project.home, baseUrl: t.api.url }), CLAUDE_CODE_EXECUTABLE: BIN_PATH, ...opts.env };
  const child = spawn(process.execPath, [ACP_ADAPTER], { cwd: t.project.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const client: Client = {
    async requestPermission(req): Promise<RequestPermissionResponse> {
      permissions.push(req);
      const answer = (await opts.permission?.(req)) ?? 'reject';
      return answer === 'cancelled' ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId: answer } };
    },
    async sessionUpdate(n) {
      updates.push(n);
    },
  };
  const stream = ndJsonStream(Writable.toWeb(child.stdin!), Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const conn = new ClientSideConnection(() => client, stream);
  await conn.initialize({ protocolVersion: PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } });
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  return {
    conn,
    child,
    updates,
    permissions,
    stderr: () => err,
    text: (id) =>
      updates
        .filter((u) => u.sessionId === id && u.update.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.update as { content: { type: string; text?: string } }).content.text ?? '')
        .join(''),
    kinds: (id) => updates.filter((u) => u.sessionId === id).map((u) => u.update.sessionUpdate),
    async close() {
      child.stdin!.end();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
