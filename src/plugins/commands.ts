/**
 * Plugin commands and skills, named `<plugin>:<name>` (`/myplug:hello`): every `.md` file of the
 * plugin's command folders or files (a subfolder adds `folder:`), and every skill folder
 * (`<folder>/SKILL.md`) of its skill folders, named after the folder. Read as the project's are
 * (custom-commands.ts, skills.ts), with `${CLAUDE_PLUGIN_ROOT}` filled in when expanded.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { commandFromFile, scanCommandDir } from '../commands/custom-commands.js';
import type { CustomCommand } from '../commands/types.js';
import { scanSkillDir, skillFromDir } from '../commands/skills.js';
import type { LoadedPlugin } from './types.js';

export function pluginCommands(plugins: readonly LoadedPlugin[]): CustomCommand[] {
  return plugins.flatMap((plugin) => plugin.paths.commands.flatMap((p) => commandsAt(p)).map((c) => inPlugin(c, plugin, c.name)));
}

export function pluginSkills(plugins: readonly LoadedPlugin[]): CustomCommand[] {
  return plugins.flatMap((plugin) => plugin.paths.skills.flatMap((p) => skillsAt(p)).map((s) => inPlugin(s, plugin, path.basename(s.skillDir ?? s.name))));
}

/** A command file, a folder of them, or a skill folder listed as a command. */
function commandsAt(p: string): CustomCommand[] {
  if (p.endsWith('.md') && isFile(p)) {
    const cmd = commandFromFile(p, path.basename(p, '.md'), 'plugin');
    return cmd ? [cmd] : [];
  }
  if (existsSync(path.join(p, 'SKILL.md'))) return skillsAt(p);
  return scanCommandDir(p, 'plugin');
}

/** A skill folder, or a folder of skill folders. */
function skillsAt(p: string): CustomCommand[] {
  if (existsSync(path.join(p, 'SKILL.md'))) {
    const skill = skillFromDir(p, path.basename(p), 'plugin');
    return skill ? [skill] : [];
  }
  return scanSkillDir(p, 'plugin');
}

function inPlugin(cmd: CustomCommand, plugin: LoadedPlugin, name: string): CustomCommand {
  return { ...cmd, name: `${plugin.name}:${name}`, source: 'plugin', pluginRoot: plugin.root };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
