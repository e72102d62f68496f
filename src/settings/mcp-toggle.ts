/**
 * `/mcp enable|disable <server>`, kept where Claude Code keeps it so the next start honours it: a
 * project server (.mcp.json) by its name in `enabledMcpjsonServers` or `disabledMcpjsonServers` of
 * `.claude/settings.local.json` (and out of the other list); any other server by its name in (or out
 * of) `projects["<folder>"].disabledMcpServers` of `~/.claude.json`. Both files are written atomically,
 * every other key kept. Returns the file changed.
 */
import { editJsonObject, projectEntry } from './global-config.js';
import { globalConfigPath, localSettingsPath } from './paths.js';
import { saveMcpApproval } from './persist.js';

export interface McpToggleWhere {
  /** The session's folder: the project of settings.local.json and the key in ~/.claude.json. */
  cwd: string;
  home: string;
  configDir?: string;
}

export async function saveMcpToggle(where: McpToggleWhere, server: { name: string; scope: string }, enabled: boolean): Promise<string> {
  if (server.scope === 'project') {
    await saveMcpApproval(where.cwd, server.name, enabled ? 'this' : 'never');
    return localSettingsPath(where.cwd);
  }
  const file = globalConfigPath(where.home, where.configDir);
  await editJsonObject(file, (data) => {
    const entry = projectEntry(data, where.cwd, true)!;
    if (entry.disabledMcpServers !== undefined && !Array.isArray(entry.disabledMcpServers))
      throw new Error(`${file}: disabledMcpServers of ${where.cwd} is not an array; it was not changed`);
    const before: unknown[] = entry.disabledMcpServers ?? [];
    const rest = before.filter((n) => n !== server.name);
    entry.disabledMcpServers = enabled ? rest : [...rest, server.name];
  });
  return file;
}
