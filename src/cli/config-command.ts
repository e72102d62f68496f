/**
 * `wicket config`: which settings sources loaded, every rule with its origin, and the warnings; then
 * the model service the settings and environment choose (provider, region, endpoint, where the
 * credentials come from, model ids), without sending anything. A file that cannot be read as
 * settings is shown as an error, and the command then exits with 2.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { chooseProvider, describeProvider, modelPlan, providerWarnings } from '../api/providers/index.js';
import { loadSettings } from '../settings/load.js';
import { formatSettingsReport } from '../settings/report.js';

export async function runConfig(_args: string[]): Promise<number> {
  const env = process.env;
  const loaded = loadSettings({
    cwd: realpathSync(process.cwd()),
    home: env.HOME ?? homedir(),
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    managedPath: env.WICKET_MANAGED_SETTINGS || undefined,
  });
  const merged = { ...env, ...loaded.env };
  const settings = loaded.merged as Record<string, string | undefined>;
  loaded.warnings.push(...providerWarnings(chooseProvider(merged), settings));
  const provider = describeProvider(merged, settings, modelPlan(merged, merged.ANTHROPIC_MODEL || loaded.model));
  process.stdout.write(`${formatSettingsReport(loaded).trimEnd()}\n\n${provider.join('\n')}\n`);
  return loaded.errors.length ? 2 : 0;
}
