/**
 * The plugins of the session running in this process, set once at session set-up (like --agents,
 * see tools/agent/definitions.ts). Their commands, skills, agents and output styles are handed to
 * the loaders of each (which are called from many places with only a folder and a config dir, and
 * know nothing of plugins). Empty until set.
 */
import { setPluginCommands } from '../commands/custom-commands.js';
import { setPluginSkills } from '../commands/skills.js';
import { setPluginOutputStyles } from '../settings/output-styles.js';
import { setPluginAgents } from '../tools/agent/definitions.js';
import { pluginAgentDefinitions } from './agents.js';
import { pluginCommands, pluginSkills } from './commands.js';
import { pluginOutputStyles } from './output-styles.js';
import { NO_PLUGINS, type PluginSet } from './types.js';

let active: PluginSet = NO_PLUGINS;

export function setActivePlugins(set: PluginSet): void {
  active = set;
  setPluginCommands(() => pluginCommands(set.plugins));
  setPluginSkills(() => pluginSkills(set.plugins));
  setPluginAgents(() => pluginAgentDefinitions(set.plugins));
  setPluginOutputStyles(() => pluginOutputStyles(set.plugins));
}

export function activePlugins(): PluginSet {
  return active;
}
