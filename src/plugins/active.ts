/**
 * The plugins of the session running in this process, set once at session set-up (like --agents,
 * see tools/agent/definitions.ts), and read by the loaders of commands, skills, agents and output
 * styles, which are called from many places with only a folder and a config dir. Empty until set.
 */
import { setPluginOutputStyles } from '../settings/output-styles.js';
import { pluginOutputStyles } from './output-styles.js';
import { NO_PLUGINS, type PluginSet } from './types.js';

let active: PluginSet = NO_PLUGINS;

export function setActivePlugins(set: PluginSet): void {
  active = set;
  setPluginOutputStyles(() => pluginOutputStyles(set.plugins));
}

export function activePlugins(): PluginSet {
  return active;
}
