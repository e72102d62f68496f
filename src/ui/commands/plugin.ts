/**
 * /plugin opens the plugin screen (PluginScreen.tsx); `/plugin list` describes the session's plugins
 * (--plugin-dir and enabledPlugins), what each brings, and those that did not load; `/plugin
 * marketplace add|update|remove|list …`, `/plugin install|update|uninstall|enable|disable <name@marketplace>`
 * do what `wicket plugin …` does. /reload-plugins brings the changes into the running session.
 */
import { activePlugins } from '../../plugins/active.js';
import { type ManageContext, type PluginScope, setPluginEnabled } from '../../plugins/manage-context.js';
import { addMarketplace, listMarketplaces, removeMarketplace, updateMarketplaces } from '../../plugins/marketplace-manage.js';
import { installPlugin, uninstallPlugin } from '../../plugins/plugin-install.js';
import { updatePlugins } from '../../plugins/plugin-update.js';
import { describePlugins } from '../../plugins/report.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

const APPLY = 'Run /reload-plugins to use it in this session.';

export const pluginCommand: SlashCommand = {
  name: 'plugin',
  aliases: ['plugins'],
  description: 'Plugins: browse marketplaces, install, enable, disable and update',
  argumentHint: '[list | install <name@marketplace> | marketplace add <source> | …]',
  source: 'builtin',
  run: async (args, s) => {
    const [verb = '', ...rest] = args.trim().split(/\s+/).filter(Boolean);
    if (!verb) return s.openPlugins ? { kind: 'plugins' } : { kind: 'info', text: describePlugins(activePlugins()) };
    if (verb === 'list') return { kind: 'info', text: describePlugins(activePlugins()) };
    try {
      return await subcommand(manageContext(s), verb, rest);
    } catch (err) {
      return { kind: 'info', tone: 'error', text: (err as Error).message };
    }
  },
};

export const reloadPluginsCommand: SlashCommand = {
  name: 'reload-plugins',
  description: "Reload the plugins' commands, skills, agents, hooks and MCP servers without a restart",
  source: 'builtin',
  run: async (_args, s) => {
    if (!s.reloadPlugins) return { kind: 'info', tone: 'warning', text: 'Plugins cannot be reloaded here.' };
    const r = await s.reloadPlugins();
    return { kind: 'info', text: r.text, ...(r.warning ? { tone: 'warning' as const } : {}) };
  },
};

function manageContext(s: SessionControl): ManageContext {
  const env = s.options.env;
  return { cwd: s.cwd, home: s.options.homeDir, ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}), env };
}

async function subcommand(ctx: ManageContext, verb: string, rest: string[]): Promise<CommandResult> {
  const info = (text: string): CommandResult => ({ kind: 'info', text });
  const { ids, scope } = idsAndScope(rest.slice(verb === 'marketplace' ? 1 : 0));
  if (verb === 'marketplace') return marketplace(ctx, rest[0] ?? '', ids);
  const id = ids[0];
  if (verb === 'update') {
    const { plugins } = await updatePlugins(ctx, id, scope);
    return info(
      plugins
        .map((p) =>
          'error' in p
            ? `Could not update ${p.id}: ${p.error}`
            : 'current' in p
              ? `${p.id} is already at ${p.current}.`
              : `Updated ${p.id} from ${p.from} to ${p.to}.`,
        )
        .concat(plugins.some((p) => 'to' in p) ? [APPLY] : [])
        .join('\n') || 'No plugins are installed.',
    );
  }
  if (!id || ids.length > 1) throw new Error(`Usage: /plugin ${verb} <name@marketplace> [-s user|project|local]`);
  if (verb === 'install' || verb === 'i') {
    const done = await installPlugin(ctx, id, scope ?? 'user');
    return info(`Installed ${id} ${done.version} (${scope ?? 'user'} scope). ${APPLY}`);
  }
  if (verb === 'uninstall' || verb === 'remove') {
    await uninstallPlugin(ctx, id, scope ?? 'user');
    return info(`Uninstalled ${id}. ${APPLY}`);
  }
  if (verb === 'enable' || verb === 'disable') {
    await setPluginEnabled(ctx, id, scope ?? 'user', verb === 'enable');
    return info(`${id} is ${verb}d (${scope ?? 'user'} settings). ${APPLY}`);
  }
  throw new Error(`Unknown /plugin command "${verb}". /plugin opens the plugin screen.`);
}

async function marketplace(ctx: ManageContext, what: string, args: string[]): Promise<CommandResult> {
  const info = (text: string): CommandResult => ({ kind: 'info', text });
  if (what === 'add' && args.length === 1) {
    const added = await addMarketplace(ctx, args[0]!);
    return info(
      `Added the marketplace ${added.name} (${added.plugins.join(', ') || 'no plugins'}). /plugin lists them under Discover.${added.note ? `\n${added.note}` : ''}`,
    );
  }
  if (what === 'update') {
    const results = await updateMarketplaces(ctx, args[0]);
    return info(
      results.map((r) => ('error' in r ? `Could not update the marketplace ${r.name}: ${r.error}` : `Updated the marketplace ${r.name}.`)).join('\n') ||
        'No marketplaces.',
    );
  }
  if ((what === 'remove' || what === 'rm') && args.length === 1) {
    const gone = await removeMarketplace(ctx, args[0]!);
    return info(`Removed the marketplace ${args[0]}.${gone.length ? ` Uninstalled ${gone.join(', ')}. ${APPLY}` : ''}`);
  }
  if (what === 'list')
    return info(
      listMarketplaces(ctx)
        .map((m) => `${m.name}  ${m.source}`)
        .join('\n') || 'No marketplaces.',
    );
  throw new Error('Usage: /plugin marketplace add <source> | update [name] | remove <name> | list');
}

function idsAndScope(words: string[]): { ids: string[]; scope?: PluginScope } {
  const ids: string[] = [];
  let scope: PluginScope | undefined;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-s' || w === '--scope') {
      const v = words[++i];
      if (v !== 'user' && v !== 'project' && v !== 'local') throw new Error(`${w} takes user, project or local`);
      scope = v;
    } else ids.push(w);
  }
  return { ids, ...(scope ? { scope } : {}) };
}
