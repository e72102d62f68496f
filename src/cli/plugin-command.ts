/**
 * `wicket plugin …`, in Claude Code's files (plugins/manage.ts):
 *   list [--plugin-dir <folder>]…              the plugins a session here loads, what each brings, and those that would not load
 *   install <name@marketplace> [-s scope]     checks it is on disk, then turns it on (scope: user, the default; project; local)
 *   uninstall <name@marketplace> [-s scope]   takes it out of that scope's enabledPlugins
 *   enable | disable <name@marketplace> [-s scope]
 *   marketplace add <folder> | list | remove <name>
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import {
  addMarketplace,
  installPlugin,
  listMarketplaces,
  removeMarketplace,
  scopeFile,
  setPluginEnabled,
  type ManageContext,
  type PluginScope,
} from '../plugins/manage.js';
import { usePlugins } from '../plugins/session.js';
import { describePlugins } from '../plugins/report.js';
import { loadSettings } from '../settings/load.js';
import { stopMessage } from '../settings/problem.js';
import { UsageError } from './options.js';

const USAGE =
  'wicket plugin list [--plugin-dir <folder>]… | install|uninstall|enable|disable <name@marketplace> [-s user|project|local] | marketplace add <folder> | marketplace list | marketplace remove <name>';

export async function runPluginCommand(args: string[]): Promise<number> {
  const env = process.env;
  const ctx: ManageContext = {
    cwd: realpathSync(process.cwd()),
    home: env.HOME ?? homedir(),
    ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}),
  };
  const [sub, ...rest] = args;
  try {
    if (sub === 'list') return list(ctx, rest);
    if (sub === 'marketplace') return await marketplace(ctx, rest);
    if (sub === 'install' || sub === 'i' || sub === 'uninstall' || sub === 'enable' || sub === 'disable') return await change(ctx, sub, rest);
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

async function marketplace(ctx: ManageContext, rest: string[]): Promise<number> {
  const [what, arg, extra] = rest;
  if (extra !== undefined) throw new UsageError(`marketplace: unexpected argument "${extra}"`);
  if (what === 'add' && arg) {
    const name = await addMarketplace(ctx, arg);
    process.stdout.write(`Added the marketplace ${name}. Install its plugins with: wicket plugin install <name>@${name}\n`);
  } else if (what === 'list' && arg === undefined) {
    const all = listMarketplaces(ctx);
    process.stdout.write(all.length ? `${all.map((m) => `${m.name}  ${m.location}`).join('\n')}\n` : 'No marketplaces.\n');
  } else if ((what === 'remove' || what === 'rm') && arg) {
    await removeMarketplace(ctx, arg);
    process.stdout.write(`Removed the marketplace ${arg}.\n`);
  } else {
    throw new UsageError(`marketplace: ${what ? `"${what}" needs ${what === 'list' ? 'no argument' : 'one argument'}` : 'missing command'}`);
  }
  return 0;
}

async function change(ctx: ManageContext, sub: string, rest: string[]): Promise<number> {
  let scope: PluginScope = 'user';
  const ids: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '-s' || a === '--scope') {
      const v = rest[++i];
      if (v !== 'user' && v !== 'project' && v !== 'local') throw new UsageError(`${a} takes user, project or local`);
      scope = v;
    } else ids.push(a);
  }
  if (ids.length !== 1) throw new UsageError(`${sub} takes one plugin, as name@marketplace`);
  const id = ids[0]!;
  const where = scopeFile(ctx, scope);
  if (sub === 'install' || sub === 'i') {
    const root = await installPlugin(ctx, id, scope);
    process.stdout.write(`Installed ${id} (${root}), enabled in ${where}. It loads in new sessions.\n`);
  } else if (sub === 'uninstall') {
    if (!(await setPluginEnabled(ctx, id, scope, undefined))) throw new Error(`${id} is not in ${where}`);
    process.stdout.write(`Uninstalled ${id} from ${where}.\n`);
  } else {
    const on = sub === 'enable';
    const changed = await setPluginEnabled(ctx, id, scope, on);
    process.stdout.write(`${id} ${changed ? 'is now' : 'was already'} ${on ? 'enabled' : 'disabled'} in ${where}.\n`);
  }
  return 0;
}
