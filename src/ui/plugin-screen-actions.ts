/**
 * What the /plugin screen's keys do, each through the same functions as `wicket plugin …` (so
 * Claude Code sees the same files change), and the line the screen shows afterwards.
 */
import type { AvailableItem, InstalledItem, MarketplaceItem } from '../plugins/catalog.js';
import { type ManageContext, setPluginEnabled } from '../plugins/manage-context.js';
import { removeMarketplace, updateMarketplaces } from '../plugins/marketplace-manage.js';
import { installPlugin, uninstallPlugin } from '../plugins/plugin-install.js';
import { updatePlugins } from '../plugins/plugin-update.js';

export interface ActionResult {
  text: string;
  tone: 'ok' | 'error';
}

/** A running action: the line to show while it runs, and its work. */
export interface PluginAction {
  doing: string;
  run: () => Promise<ActionResult>;
}

const ok = (text: string): ActionResult => ({ text, tone: 'ok' });
const failed = (err: unknown): ActionResult => ({ text: (err as Error).message, tone: 'error' });

export function installAction(ctx: ManageContext, item: AvailableItem, scope: 'user' | 'project'): PluginAction {
  return {
    doing: `Installing ${item.id}…`,
    run: () =>
      installPlugin(ctx, item.id, scope).then(
        (i) => ok(`Installed ${item.id} ${i.version} (${scope} scope).`),
        (err) => failed(new Error(`Could not install ${item.id}: ${(err as Error).message}`)),
      ),
  };
}

export function toggleAction(ctx: ManageContext, item: InstalledItem): PluginAction {
  const on = !item.enabled;
  return {
    doing: `${on ? 'Enabling' : 'Disabling'} ${item.id}…`,
    run: () => setPluginEnabled(ctx, item.id, item.scope, on).then(() => ok(`${item.id} is ${on ? 'enabled' : 'disabled'} (${item.scope} settings).`), failed),
  };
}

export function updatePluginAction(ctx: ManageContext, item: InstalledItem): PluginAction {
  return {
    doing: `Updating ${item.id}…`,
    run: async () => {
      try {
        const { plugins } = await updatePlugins(ctx, item.id, item.scope);
        const p = plugins[0];
        if (!p) return ok(`${item.id} is not installed here.`);
        if ('error' in p) return failed(new Error(`Could not update ${item.id}: ${p.error}`));
        return ok('current' in p ? `${item.id} is already at the latest version (${p.current}).` : `Updated ${item.id} from ${p.from} to ${p.to}.`);
      } catch (err) {
        return failed(err);
      }
    },
  };
}

export function uninstallAction(ctx: ManageContext, item: InstalledItem): PluginAction {
  return {
    doing: `Uninstalling ${item.id}…`,
    run: () => uninstallPlugin(ctx, item.id, item.scope).then(() => ok(`Uninstalled ${item.id} (${item.scope} scope).`), failed),
  };
}

export function updateMarketplaceAction(ctx: ManageContext, item: MarketplaceItem): PluginAction {
  return {
    doing: `Updating the marketplace ${item.name}…`,
    run: () =>
      updateMarketplaces(ctx, item.name).then(([r]) => {
        if (!r) return ok(`No marketplace named ${item.name}.`);
        return 'error' in r
          ? failed(new Error(`Could not update ${item.name}: ${r.error}`))
          : ok(`Updated the marketplace ${item.name} (${r.plugins} plugins).`);
      }, failed),
  };
}

export function removeMarketplaceAction(ctx: ManageContext, item: MarketplaceItem): PluginAction {
  return {
    doing: `Removing the marketplace ${item.name}…`,
    run: () =>
      removeMarketplace(ctx, item.name).then(
        (gone) => ok(`Removed the marketplace ${item.name}.${gone.length ? ` Uninstalled ${gone.join(', ')}.` : ''}`),
        failed,
      ),
  };
}
