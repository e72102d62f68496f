/**
 * `wicket config`: which settings sources loaded, every rule with its origin, and the warnings; then
 * the instruction files a session here would start with (why each, its size in tokens), the rules
 * that wait for a matching file, and the files left out with why; then the model service the
 * settings and environment choose (provider, region, endpoint, where the credentials come from,
 * model ids), without sending anything. A file that cannot be read as
 * settings is shown as an error, and the command then exits with 2.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { setupInstructions } from '../core/setup/instructions-setup.js';
import { projectSlug } from '../session/paths.js';
import { chooseProvider, describeProvider, modelPlan, providerWarnings } from '../api/providers/index.js';
import { loadSettings } from '../settings/load.js';
import { formatSettingsReport } from '../settings/report.js';
import { supportWarnings } from '../settings/support.js';

export async function runConfig(_args: string[]): Promise<number> {
  const env = process.env;
  const cwd = realpathSync(process.cwd());
  const home = env.HOME ?? homedir();
  const loaded = loadSettings({
    cwd,
    home,
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    managedPath: env.WICKET_MANAGED_SETTINGS || undefined,
  });
  const configDir = env.CLAUDE_CONFIG_DIR ? path.resolve(env.CLAUDE_CONFIG_DIR) : path.join(home, '.claude');
  const memory = setupInstructions(
    { bare: false, safeMode: false },
    { cwd, home, configDir, env: { ...env, ...loaded.env }, loaded, additionalDirs: loaded.additionalDirectories, slug: projectSlug, makeFolder: false },
  );
  const instructions = memory.instructions?.report() ?? [];
  if (!loaded.errors.length) loaded.warnings.push(...supportWarnings(loaded.merged, env));
  const merged = { ...env, ...loaded.env };
  const settings = loaded.merged as Record<string, string | undefined>;
  loaded.warnings.push(...providerWarnings(chooseProvider(merged), settings));
  const provider = describeProvider(merged, settings, modelPlan(merged, merged.ANTHROPIC_MODEL || loaded.model));
  process.stdout.write(`${formatSettingsReport(loaded).trimEnd()}\n\n${instructions.join('\n')}\n\n${provider.join('\n')}\n`);
  return loaded.errors.length ? 2 : 0;
}
