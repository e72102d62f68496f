/**
 * The `yaml` package, for frontmatter. The main bundle swaps this module for one that loads it on the
 * first call (build.mjs), so a run without agent files never reads or initialises it.
 */
import * as yaml from 'yaml';

export function yamlLib(): typeof yaml {
  return yaml;
}
