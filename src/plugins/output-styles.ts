/**
 * Plugin output styles: every `.md` file of the plugin's output-style folders or files, read as
 * `.claude/output-styles/*.md` are (settings/output-styles.ts) and named `<plugin>:<name>`. A style
 * with `force-for-plugin: true` is the session's style while settings choose none.
 */
import { parseFrontmatter } from '../settings/frontmatter.js';
import { styleFromFile, type OutputStyle } from '../settings/output-styles.js';
import { markdownAt } from './files.js';
import type { LoadedPlugin } from './types.js';

export interface PluginOutputStyle extends OutputStyle {
  forced: boolean;
}

export function pluginOutputStyles(plugins: readonly LoadedPlugin[]): PluginOutputStyle[] {
  return plugins.flatMap((plugin) =>
    plugin.paths.outputStyles.flatMap(markdownAt).map(({ file, text }) => {
      const style = styleFromFile(file, text, 'plugin');
      return { ...style, name: `${plugin.name}:${style.name}`, forced: parseFrontmatter(text).meta['force-for-plugin'] === 'true' };
    }),
  );
}
