/**
 * `wicket plugin update [name@marketplace]`: the marketplaces the plugins come from are fetched again
 * first (so a push to the team's repository reaches this machine in one command), then each install
 * this place uses is brought to the version the marketplace now lists (plugin-install.ts). A
 * marketplace that cannot be fetched is reported, and its plugins are updated from the copy on disk.
 */
import { readRecords } from './install-records.js';
import { type ManageContext, type PluginScope, pluginsDirOf, splitId } from './manage-context.js';
import { type MarketplaceUpdate, updateMarketplaces } from './marketplace-manage.js';
import { type UpdateOutcome, updateInstalled } from './plugin-install.js';

export async function updatePlugins(
  ctx: ManageContext,
  id: string | undefined,
  scope?: PluginScope,
): Promise<{ marketplaces: MarketplaceUpdate[]; plugins: UpdateOutcome[] }> {
  const ids = id ? [id] : Object.keys(readRecords(pluginsDirOf(ctx)));
  const markets = [...new Set(ids.map((i) => splitId(i).marketplace))].sort();
  const marketplaces: MarketplaceUpdate[] = [];
  for (const m of markets) marketplaces.push(...(await updateMarketplaces(ctx, m).catch((err: Error) => [{ name: m, error: err.message }])));
  return { marketplaces, plugins: await updateInstalled(ctx, id, scope) };
}
