/**
 * web-tree-sitter, the Bash parser's runtime. The main bundle swaps this module for one that loads
 * it on the first call as a bundle of its own with a code cache (build.mjs): required from
 * node_modules, its 170 KB of JavaScript was compiled from source at every run that parsed a
 * command. Running the sources, it is required from node_modules (its CommonJS build: an import()
 * would start the ES module loader).
 */
import { requireModule } from '../../base/lib/import-module.js';

export function treeSitterLib(): typeof import('web-tree-sitter') {
  return requireModule<typeof import('web-tree-sitter')>('web-tree-sitter');
}
