/**
 * `wicket config`: which settings sources loaded, every rule with its origin, and the warnings. A
 * file that cannot be read as settings is shown as an error, and the command then exits with 2.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadSettings } from '../settings/load.js';
import { formatSettingsReport } from '../settings/report.js';
import { supportWarnings } from '../settings/support.js';

export async function runConfig(_args: string[]): Promise<number> {
  const env = process.env;
  const loaded = loadSettings({
    cwd: realpathSync(process.cwd()),
    home: env.HOME ?? homedir(),
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    managedPath: env.WICKET_MANAGED_SETTINGS || undefined,
  });
  if (!loaded.errors.length) loaded.warnings.push(...supportWarnings(loaded.merged, env));
  process.stdout.write(`${formatSettingsReport(loaded).trimEnd()}\n`);
  return loaded.errors.length ? 2 : 0;
}
