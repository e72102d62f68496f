/**
 * `wicket plugin marketplace …` (plugins/marketplace-manage.ts):
 *   add <source>       owner/repo[#ref], a git URL[#ref] (https, ssh, git@host:path, file://), an https URL of a marketplace.json, ./folder or ./marketplace.json
 *   list               the marketplaces added, with their sources and where their copies are
 *   update [name]      each (or the named) marketplace fetched again from its source
 *   remove <name>      the marketplace, its copy, and the plugins installed from it
 */
import type { ManageContext } from '../plugins/manage-context.js';
import { addMarketplace, listMarketplaces, removeMarketplace, updateMarketplaces } from '../plugins/marketplace-manage.js';
import { UsageError } from './options.js';

export async function marketplaceCommand(ctx: ManageContext, rest: string[], out: (text: string) => void): Promise<number> {
  const [what, arg, extra] = rest;
  if (extra !== undefined) throw new UsageError(`marketplace: unexpected argument "${extra}"`);
  if (what === 'add' && arg) {
    const added = await addMarketplace(ctx, arg).catch((err: Error) => {
      throw new Error(`cannot add the marketplace ${arg}: ${err.message}`);
    });
    const n = added.plugins.length;
    out(`Added the marketplace ${added.name} (${n} plugin${n === 1 ? '' : 's'}) at ${added.installLocation}.`);
    if (n) out(`Install its plugins with: wicket plugin install <name>@${added.name}   (${added.plugins.join(', ')})`);
    if (added.note) out(added.note);
    return 0;
  }
  if (what === 'list' && arg === undefined) {
    const all = listMarketplaces(ctx);
    out(
      all.length ? all.map((m) => `${m.name}  ${m.source}  ${m.location}`).join('\n') : 'No marketplaces. Add one with: wicket plugin marketplace add <source>',
    );
    return 0;
  }
  if (what === 'update') {
    const results = await updateMarketplaces(ctx, arg);
    if (!results.length) out('No marketplaces to update.');
    for (const r of results)
      out(
        'error' in r
          ? `Could not update the marketplace ${r.name}: ${r.error}`
          : `Updated the marketplace ${r.name} (${r.plugins} plugin${r.plugins === 1 ? '' : 's'}).`,
      );
    return results.some((r) => 'error' in r) ? 1 : 0;
  }
  if ((what === 'remove' || what === 'rm') && arg) {
    const uninstalled = await removeMarketplace(ctx, arg);
    out(`Removed the marketplace ${arg}.${uninstalled.length ? ` Also uninstalled its plugins: ${uninstalled.join(', ')}.` : ''}`);
    return 0;
  }
  throw new UsageError(
    `marketplace: ${what ? `"${what}" ${what === 'list' ? 'takes no argument' : what === 'update' ? 'takes at most a name' : 'needs one argument'}` : 'missing command'}`,
  );
}
