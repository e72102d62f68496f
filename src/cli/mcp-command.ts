/**
 * `wicket mcp`: Claude Code's commands for MCP servers, on the same files.
 *   list                      every configured server, and whether it connects
 *   get <name>                one server's configuration and state
 *   add [-s scope] [-t transport] [-e K=V] [-H "K: V"] <name> <commandOrUrl> [args...]
 *   add-json [-s scope] <name> <json>
 *   remove [-s scope] <name>
 *   login <name> / logout <name>   sign in to an http or sse server (OAuth), or clear that
 * Scopes: local (default: ~/.claude.json, this project only), project (.mcp.json), user (~/.claude.json).
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { Command, CommanderError } from 'commander';
import { VERSION } from '../base/version.js';
import { loadMcpConfig, parseServer, type McpScope, type McpServerEntry } from '../mcp/config.js';
import { oauthStorePath } from '../mcp/oauth-store.js';
import { sandboxLabel, stdioSandbox } from '../mcp/sandbox.js';
import { mcpLimitsFromEnv, McpServers, type McpServersOptions } from '../mcp/servers.js';
import { loadSettings } from '../settings/load.js';
import { SettingsUnreadableError, stopMessage } from '../settings/problem.js';
import { wicketHomeDir } from '../settings/paths.js';
import { mcpLogin, mcpLogout } from './mcp-login-command.js';
import { configFileFor, readServers, removeServer, writeServer, type WritableScope } from './mcp-files.js';

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

export async function runMcpCommand(
  args: string[],
  io: Io = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) },
): Promise<number> {
  const env = process.env;
  const where = { cwd: realpathSync(process.cwd()), home: env.HOME ?? homedir(), configDir: env.CLAUDE_CONFIG_DIR || undefined };
  let code = 0;
  const program = new Command('wicket mcp')
    .description('Configure and check MCP servers (the files Claude Code uses)')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  program
    .command('list')
    .description('List the configured servers and check that they connect')
    .action(async () => {
      code = await list(where, io);
    });
  program
    .command('get <name>')
    .description("Show one server's configuration and state")
    .action(async (name: string) => {
      code = await get(where, name, io);
    });
  program
    .command('add <name> <commandOrUrl> [args...]')
    .description('Add a server: a command to run (stdio), or a URL (-t http|sse)')
    .option('-s, --scope <scope>', 'local (this project, just you), project (.mcp.json) or user', 'local')
    .option('-t, --transport <transport>', 'stdio, http or sse', 'stdio')
    .option('-e, --env <KEY=value>', 'an environment variable for a stdio server (repeatable)', collect, [])
    .option('-H, --header <"Name: value">', 'a header for an http or sse server (repeatable)', collect, [])
    .option('--client-id <id>', 'an OAuth client registered in advance, for an http or sse server')
    .option('--callback-port <port>', 'the port of the OAuth callback (http://localhost:<port>/callback)')
    .action(async (name: string, target: string, rest: string[], o: AddFlags) => {
      for (const w of addFlagWarnings(target, o)) io.err(`Warning: ${w}\n`);
      code = await add(where, name, entryFromFlags(target, rest, o), o.scope, io);
    });
  program
    .command('add-json <name> <json>')
    .description('Add a server from its JSON entry')
    .option('-s, --scope <scope>', 'local, project or user', 'local')
    .action(async (name: string, json: string, o: { scope: string }) => {
      let entry: unknown;
      try {
        entry = JSON.parse(json);
      } catch (err) {
        io.err(`wicket mcp: the JSON is not valid: ${(err as Error).message}\n`);
        return void (code = 1);
      }
      code = await add(where, name, entry, o.scope, io);
    });
  program
    .command('login <name>')
    .description('Sign in to an http or sse server (OAuth, in the browser)')
    .action(async (name: string) => {
      const { entries, options } = configuredServers(where);
      code = await mcpLogin({ entries, connect: { ...options, oauthStore: options.oauthStore! } }, name, io);
    });
  program
    .command('logout <name>')
    .description("Clear an http or sse server's stored authentication")
    .action(async (name: string) => {
      const { entries, options } = configuredServers(where);
      code = await mcpLogout({ entries, connect: { ...options, oauthStore: options.oauthStore! } }, name, io);
    });
  program
    .command('remove <name>')
    .description('Remove a server')
    .option('-s, --scope <scope>', 'local, project or user (needed when the name is in more than one)')
    .action(async (name: string, o: { scope?: string }) => {
      code = await remove(where, name, o.scope, io);
    });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 || err.code === 'commander.helpDisplayed' ? 0 : 2;
    if (err instanceof SettingsUnreadableError) {
      io.err(stopMessage(err.problems, undefined, false));
      return 2;
    }
    io.err(`wicket mcp: ${(err as Error).message}\n`);
    return 1;
  }
  return code;
}

type Where = { cwd: string; home: string; configDir?: string };

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

type AddFlags = { scope: string; transport: string; env: string[]; header: string[]; clientId?: string; callbackPort?: string };

const isRemote = (transport: string) => transport === 'http' || transport === 'sse' || transport === 'streamable-http';

/** The flags of `mcp add` that do not fit the server's transport, which the entry leaves out (as Claude Code warns of them). */
export function addFlagWarnings(target: string, o: AddFlags): string[] {
  const out: string[] = [];
  if (isRemote(o.transport)) {
    if (o.env.length) out.push('--env only works with stdio servers and is ignored for HTTP/SSE.');
    return out;
  }
  if (o.clientId !== undefined || o.callbackPort !== undefined)
    out.push('--client-id and --callback-port only work with HTTP/SSE servers and are ignored for stdio.');
  if (o.header.length) out.push('--header only works with HTTP/SSE servers and is ignored for stdio.');
  if (/^https?:\/\//i.test(target)) out.push(`The command "${target}" looks like a URL, but is treated as a stdio server because --transport wasn't set.`);
  return out;
}

function entryFromFlags(target: string, args: string[], o: AddFlags): Record<string, unknown> {
  if (isRemote(o.transport)) {
    const headers = Object.fromEntries(o.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]).filter(([k]) => k));
    const port = o.callbackPort === undefined ? undefined : /^\d+$/.test(o.callbackPort) ? Number(o.callbackPort) : o.callbackPort;
    const oauth = { ...(o.clientId ? { clientId: o.clientId } : {}), ...(port !== undefined ? { callbackPort: port } : {}) };
    return {
      type: o.transport === 'sse' ? 'sse' : 'http',
      url: target,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(oauth).length ? { oauth } : {}),
    };
  }
  const env = Object.fromEntries(o.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]).filter(([k]) => k));
  return { type: o.transport, command: target, args, ...(Object.keys(env).length ? { env } : {}) };
}

function scopeOf(value: string | undefined, io: Io): WritableScope | undefined {
  if (value === 'local' || value === 'project' || value === 'user') return value;
  io.err(`wicket mcp: --scope must be local, project or user; got ${value}\n`);
  return undefined;
}

async function add(where: Where, name: string, entry: unknown, scopeName: string, io: Io): Promise<number> {
  const scope = scopeOf(scopeName, io);
  if (!scope) return 2;
  if (!/^[A-Za-z0-9_-]+$/.test(name)) return fail(io, `the name may hold only letters, digits, "-" and "_"; got ${JSON.stringify(name)}`);
  // Variables are kept as written (they are expanded at each start); the shape is checked now.
  const parsed = parseServer(entry, new Proxy({}, { get: () => 'x' }));
  if ('error' in parsed) return fail(io, `that server entry cannot work: ${parsed.error}`);
  if (readServers(scope, where)[name])
    return fail(io, `an MCP server named ${name} is already in the ${scope} config (${configFileFor(scope, where)}); remove it first`);
  await writeServer(scope, where, name, entry as Record<string, unknown>);
  const what = parsed.config.type === 'stdio' ? `with command: ${[parsed.config.command, ...parsed.config.args].join(' ')}` : `with URL: ${parsed.config.url}`;
  io.out(`Added ${parsed.config.type} MCP server ${name} ${what} to ${scope} config\nFile modified: ${configFileFor(scope, where)}\n`);
  return 0;
}

async function remove(where: Where, name: string, scopeName: string | undefined, io: Io): Promise<number> {
  const scopes: WritableScope[] = scopeName ? [scopeOf(scopeName, io)].filter((s): s is WritableScope => !!s) : ['local', 'project', 'user'];
  if (!scopes.length) return 2;
  const holding = scopes.filter((s) => readServers(s, where)[name]);
  if (!holding.length) return fail(io, `no MCP server named ${name}${scopeName ? ` in the ${scopeName} config` : ''}`);
  if (holding.length > 1) return fail(io, `${name} is in more than one config (${holding.join(', ')}): pick one with -s`);
  await removeServer(holding[0]!, where, name);
  io.out(`Removed MCP server ${name} from ${holding[0]} config\nFile modified: ${configFileFor(holding[0]!, where)}\n`);
  return 0;
}

function fail(io: Io, message: string): number {
  io.err(`wicket mcp: ${message}\n`);
  return 1;
}

/**
 * The servers a session here would have, to list, check (which starts them) or sign in to. A settings
 * file that cannot be read may hold the policy that turns a server off (deniedMcpServers,
 * disabledMcpjsonServers): nothing starts then (SettingsUnreadableError, exit 2). `runIn`: the folder
 * the servers start in, and the only one their sandbox lets them write (`tools check`'s scratch copy);
 * the project by default.
 */
export function configuredServers(
  where: Where,
  runIn = where.cwd,
): {
  entries: McpServerEntry[];
  options: McpServersOptions;
  settings: Record<string, unknown>;
  connect: () => Promise<McpServers>;
} {
  const loaded = loadSettings({ cwd: where.cwd, home: where.home, configDir: where.configDir, managedPath: process.env.WICKET_MANAGED_SETTINGS || undefined });
  if (loaded.errors.length) throw new SettingsUnreadableError(loaded.errors);
  const env = { ...process.env, ...loaded.env };
  const config = loadMcpConfig({ ...where, env, cliConfigs: [], strict: false, settings: loaded.merged });
  const wicketHome = wicketHomeDir(where.home, env);
  const oauthStore = oauthStorePath(wicketHome);
  // The health check starts stdio servers as a session would: in the sandbox when it is on.
  const additionalDirs = loaded.additionalDirectories;
  const sandbox = stdioSandbox({
    cwd: runIn,
    projectRoot: runIn,
    additionalDirs,
    homeDir: where.home,
    wicketHome,
    env,
    settings: loaded.merged,
    rules: loaded.rules,
  });
  const options: McpServersOptions = { projectRoot: runIn, env, version: VERSION, oauthStore, ...mcpLimitsFromEnv(env), holdUnapproved: false, sandbox };
  const connect = async () => {
    const s = new McpServers(config, options);
    await s.start();
    return s;
  };
  return { entries: [...config.servers, ...config.disabled], options, settings: loaded.merged, connect };
}

async function list(where: Where, io: Io): Promise<number> {
  const { entries, connect, settings } = configuredServers(where);
  if (!entries.length) {
    io.out('No MCP servers configured. Add one with `wicket mcp add`, or in .mcp.json.\n');
    return 0;
  }
  io.out('Checking MCP server health...\n\n');
  const s = await connect();
  for (const st of s.list()) {
    const mark =
      st.status === 'connected'
        ? '✓ Connected'
        : st.status === 'disabled'
          ? '- Disabled'
          : st.status === 'needs-auth'
            ? '! Needs authentication'
            : `✗ Failed to connect${st.error ? `: ${st.error}` : ''}`;
    const where = sandboxLabel(entries.find((e) => e.name === st.name)?.config, settings);
    io.out(
      `${st.name}: ${st.detail ?? '(invalid entry)'}${st.transport && st.transport !== 'stdio' ? ` (${st.transport.toUpperCase()})` : ''}${where ? ` [${where}]` : ''} - ${mark}\n`,
    );
  }
  await s.close();
  return 0;
}

async function get(where: Where, name: string, io: Io): Promise<number> {
  const { entries, connect, settings } = configuredServers(where);
  const entry = entries.find((e) => e.name === name);
  if (!entry) return fail(io, `no MCP server named ${name}`);
  const s = await connect();
  const st = s.list().find((x) => x.name === name)!;
  const c = entry.config;
  const status = st.status === 'needs-auth' ? `needs authentication (wicket mcp login ${name} signs in)` : `${st.status}${st.error ? ` (${st.error})` : ''}`;
  const lines = [`${name}:`, `  Scope: ${scopeLabel(entry.scope)} (${entry.source})`, `  Status: ${status}`];
  if (c?.type === 'stdio') {
    lines.push('  Type: stdio', `  Command: ${c.command}`, `  Args: ${c.args.join(' ')}`, ...Object.keys(c.env).map((k) => `  Env: ${k}=…`));
    const label = sandboxLabel(c, settings);
    if (label) lines.push(`  Sandbox: ${label}`);
  } else if (c) {
    lines.push(`  Type: ${c.type}`, `  URL: ${c.url}`, ...Object.keys(c.headers).map((k) => `  Header: ${k}: …`));
    const oauth = c.type === 'ws' ? undefined : c.oauth;
    if (oauth?.clientId) lines.push(`  OAuth client: ${oauth.clientId}`);
    if (oauth?.callbackPort) lines.push(`  OAuth callback port: ${oauth.callbackPort}`);
    if (st.signedIn) lines.push(`  Signed in (wicket mcp logout ${name} clears it)`);
  }
  if (st.toolNames.length) lines.push(`  Tools: ${st.toolNames.join(', ')}`);
  io.out(
    `${lines.join('\n')}\n\nTo remove this server, run: wicket mcp remove ${name} -s ${entry.scope === 'user' ? 'user' : entry.scope === 'project' ? 'project' : 'local'}\n`,
  );
  await s.close();
  return 0;
}

function scopeLabel(scope: McpScope): string {
  return {
    dynamic: '--mcp-config',
    local: 'Local config (this project, just you)',
    project: 'Project config (.mcp.json)',
    user: 'User config (all projects)',
    plugin: 'Plugin',
    sdk: 'The Agent SDK host (in-process)',
  }[scope];
}
