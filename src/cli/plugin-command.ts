/**
 * `wicket plugin …`, in Claude Code's files (plugins/manage-context.ts), so either tool sees what the other did:
 *   list [--plugin-dir <folder>]…                the plugins a session here loads, what each brings, and those that would not load
 *   install <name@marketplace> [-s scope]       fetches it into the plugin cache, records it, turns it on (scope: user, the default; project; local)
 *   update [name@marketplace] [-s scope]        fetches its marketplace again, then a newer version of it (every installed plugin without a name)
 *   uninstall <name@marketplace> [-s scope]     takes it out of that scope
 *   enable | disable <name@marketplace> [-s scope]
 *   marketplace add <source> | list | update [name] | remove <name>   (cli/marketplace-command.ts)
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { type ManageContext, type PluginScope, scopeFile, setPluginEnabled } from '../plugins/manage-context.js';
import { installPlugin, uninstallPlugin } from '../plugins/plugin-install.js';
import { updatePlugins } from '../plugins/plugin-update.js';
import { describePlugins } from '../plugins/report.js';
import { usePlugins } from '../plugins/session.js';
import { loadSettings } from '../settings/load.js';
import { stopMessage } from '../settings/problem.js';
import { marketplaceCommand } from './marketplace-command.js';
import { UsageError } from './options.js';

const USAGE = [
  'wicket plugin list [--plugin-dir <folder>]…',
  'wicket plugin install|uninstall|enable|disable <name@marketplace> [-s user|project|local]',
  'wicket plugin update [name@marketplace] [-s user|project|local]',
  'wicket plugin marketplace add <owner/repo | git URL[#ref] | URL of a marketplace.json | ./path>',
  'wicket plugin marketplace list | update [name] | remove <name>',
].join('\n       ');

export async function runPluginCommand(args: string[]): Promise<number> {
  const env = process.env;
  const ctx: ManageContext = {
    cwd: realpathSync(process.cwd()),
    home: env.HOME ?? homedir(),
    ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}),
    env,
  };
  const [sub, ...rest] = args;
  const out = (text: string) => process.stdout.write(`${text}\n`);
  try {
    if (sub === 'list') return list(ctx, rest);
    if (sub === 'marketplace') return await marketplaceCommand(ctx, rest, out);
    if (sub === 'update') return await update(ctx, rest, out);
    if (sub === 'install' || sub === 'i' || sub === 'uninstall' || sub === 'remove' || sub === 'enable' || sub === 'disable')
      return await change(ctx, sub, rest, out);
    throw new UsageError(sub ? `unknown command "${sub}"` : 'missing command');
  } catch (err) {
    const usage = err instanceof UsageError;
    process.stderr.write(`wicket plugin: ${(err as Error).message}${usage ? `\nUsage: ${USAGE}` : ''}\n`);
    return usage ? 2 : 1;
  }
}

function list(ctx: ManageContext, rest: string[]): number {
  const dirs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--plugin-dir' && rest[i + 1] !== undefined) dirs.push(rest[++i]!);
    else throw new UsageError(`list: unexpected argument "${rest[i]}"`);
  }
  const loaded = loadSettings({ cwd: ctx.cwd, home: ctx.home, configDir: ctx.configDir, managedPath: process.env.WICKET_MANAGED_SETTINGS || undefined });
  // A file that cannot be read may turn plugins on or off: the list would not be what a session loads.
  if (loaded.errors.length) {
    process.stderr.write(stopMessage(loaded.errors, undefined, false));
    return 2;
  }
  const set = usePlugins({ bare: false, pluginDir: dirs }, loaded, { cwd: ctx.cwd, home: ctx.home, env: process.env });
  process.stdout.write(`${describePlugins(set)}\n`);
  return 0;
}

/** The plugin ids and the `-s/--scope` of what follows the command. */
function idsAndScope(rest: string[]): { ids: string[]; scope?: PluginScope } {
  let scope: PluginScope | undefined;
  const ids: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-s' || a === '--scope') {
      const v = rest[++i];
      if (v !== 'user' && v !== 'project' && v !== 'local') throw new UsageError(`${a} takes user, project or local`);
      scope = v;
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else ids.push(a);
  }
  return { ids, ...(scope ? { scope } : {}) };
}

async function change(ctx: ManageContext, sub: string, rest: string[], out: (t: string) => void): Promise<number> {
  const { ids, scope = 'user' } = idsAndScope(rest);
  if (ids.length !== 1) throw new UsageError(`${sub} takes one plugin, as name@marketplace`);
  const id = ids[0]!;
  const where = scopeFile(ctx, scope);
  if (sub === 'install' || sub === 'i') {
    const done = await installPlugin(ctx, id, scope).catch((err: Error) => {
      throw new Error(`cannot install ${id}: ${err.message}`);
    });
    out(`Installed ${id} ${done.version} (${done.installPath}), enabled in ${where}. It loads in new sessions, and after /reload-plugins in a running one.`);
  } else if (sub === 'uninstall' || sub === 'remove') {
    const done = await uninstallPlugin(ctx, id, scope);
    out(`Uninstalled ${id} from the ${scope} scope (${where})${done.removedFiles ? `; removed ${done.removedFiles}` : ''}.`);
  } else {
    const on = sub === 'enable';
    const changed = await setPluginEnabled(ctx, id, scope, on);
    out(`${id} ${changed ? 'is now' : 'was already'} ${on ? 'enabled' : 'disabled'} in ${where}.`);
  }
  return 0;
}

async function update(ctx: ManageContext, rest: string[], out: (t: string) => void): Promise<number> {
  const { ids, scope } = idsAndScope(rest);
  if (ids.length > 1) throw new UsageError('update takes at most one plugin, as name@marketplace');
  const { marketplaces, plugins } = await updatePlugins(ctx, ids[0], scope);
  let failed = false;
  for (const m of marketplaces) if ('error' in m) out(`The marketplace ${m.name} could not be fetched again (its copy on disk is used): ${m.error}`);
  for (const p of plugins) {
    if ('error' in p) {
      failed = true;
      out(`Could not update ${p.id}: ${p.error}`);
    } else if ('current' in p) out(`${p.id} is already at the latest version (${p.current}, ${p.scope} scope).`);
    else out(`Updated ${p.id} from ${p.from} to ${p.to} (${p.scope} scope). New sessions use it, and running ones after /reload-plugins.`);
  }
  if (!plugins.length) out('No plugins are installed.');
  return failed ? 1 : 0;
}
