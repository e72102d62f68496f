/**
 * `wicket mcp login <name>` and `wicket mcp logout <name>`, as Claude Code's: sign in to a
 * configured http or sse server without opening the app (the URL is printed and the browser tried;
 * the loopback callback finishes it), or clear what is stored for it.
 */
import type { McpServerEntry } from '../mcp/config.js';
import { connectServer, McpAuthRequiredError, type McpConnectOptions } from '../mcp/connect.js';
import { signIn, signOut, type RemoteConfig } from '../mcp/oauth-login.js';
import { openBrowser } from '../mcp/open-browser.js';

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

export interface LoginContext {
  entries: McpServerEntry[];
  /** How servers connect here (the store is `oauthStore`). */
  connect: McpConnectOptions & { oauthStore: string };
}

function remoteEntry(ctx: LoginContext, name: string, io: Io, allowOff = false): RemoteConfig | undefined {
  const entry = ctx.entries.find((e) => e.name === name);
  const say = (m: string) => void io.err(`wicket mcp: ${m}\n`);
  if (!entry) return void say(`no MCP server named ${name}`);
  if (!entry.config) return void say(`${name} cannot be used: ${entry.error ?? 'its entry is not valid'}`);
  if (entry.config.type === 'stdio' || entry.config.type === 'ws')
    return void say(`${name} is a ${entry.config.type} server: only http and sse servers sign in with OAuth`);
  if (entry.offReason && !allowOff) return void say(`${name} is ${entry.offReason}`);
  return entry.config;
}

export async function mcpLogin(ctx: LoginContext, name: string, io: Io): Promise<number> {
  const config = remoteEntry(ctx, name, io);
  if (!config) return 1;
  io.out(`Signing in to MCP server "${name}"…\n`);
  try {
    const result = await signIn(config, {
      ...ctx.connect,
      name,
      onUrl: (url) => {
        openBrowser(url, ctx.connect.env);
        io.out(`Open this URL in your browser to sign in (wicket tried to open it):\n  ${url}\nWaiting for the browser to come back…\n`);
      },
    });
    if (result === 'not-needed') io.out(`${name} connected without signing in: it does not ask for authentication.\n`);
  } catch (err) {
    io.err(`wicket mcp: could not sign in to ${name}: ${(err as Error).message}\n`);
    return 1;
  }
  try {
    const conn = await connectServer(config, { ...ctx.connect, name });
    const n = conn.tools.length;
    await conn.close();
    io.out(`Signed in to ${name}: connected, ${n} tool${n === 1 ? '' : 's'}.\n`);
    return 0;
  } catch (err) {
    const why = err instanceof McpAuthRequiredError ? 'it still asks for authentication' : (err as Error).message;
    io.err(`wicket mcp: signed in to ${name}, but it did not connect: ${why}\n`);
    return 1;
  }
}

export async function mcpLogout(ctx: LoginContext, name: string, io: Io): Promise<number> {
  const config = remoteEntry(ctx, name, io, true);
  if (!config) return 1;
  const had = await signOut(config, { name, oauthStore: ctx.connect.oauthStore });
  io.out(had ? `Cleared the stored authentication of ${name}.\n` : `${name} had no stored authentication.\n`);
  return 0;
}
