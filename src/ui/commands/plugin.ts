/** /plugin: the session's plugins (--plugin-dir and enabledPlugins), what each brings, and those that did not load. */
import { activePlugins } from '../../plugins/active.js';
import { describePlugins } from '../../plugins/report.js';
import type { SlashCommand } from './types.js';

export const pluginCommand: SlashCommand = {
  name: 'plugin',
  aliases: ['plugins'],
  description: 'Plugins of this session: what each brings, and those that did not load',
  source: 'builtin',
  run: () => ({ kind: 'info', text: describePlugins(activePlugins()) }),
};
