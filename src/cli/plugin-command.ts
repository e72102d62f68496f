/**
 * `wicket plugin list [--plugin-dir <folder>]…`: the plugins a session started here would load
 * (enabledPlugins in the settings, and the folders given), what each brings, and those that would
 * not load. Installing, enabling and updating plugins is left to Claude Code's own `claude plugin`.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { usePlugins } from '../plugins/session.js';
import { describePlugins } from '../plugins/report.js';
import { loadSettings } from '../settings/load.js';

export async function runPluginCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'list') {
    process.stderr.write(`wicket plugin: ${sub ? `unknown command "${sub}"` : 'missing command'}; wicket plugin list [--plugin-dir <folder>]… shows the plugins a session here loads (install plugins with Claude Code: claude plugin install <name>@<marketplace>)\n`);
    return 2;
  }
  const dirs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--plugin-dir' && rest[i + 1] !== undefined) dirs.push(rest[++i]!);
    else {
      process.stderr.write(`wicket plugin list: unexpected argument "${rest[i]}"\n`);
      return 2;
    }
  }
  const env = process.env;
  const cwd = realpathSync(process.cwd());
  const home = env.HOME ?? homedir();
  const loaded = loadSettings({ cwd, home, configDir: env.CLAUDE_CONFIG_DIR || undefined, managedPath: env.WICKET_MANAGED_SETTINGS || undefined });
  const set = usePlugins({ bare: false, pluginDir: dirs }, loaded, { cwd, home, env });
  process.stdout.write(`${describePlugins(set)}\n`);
  return 0;
}
