/**
 * The imports from outside the working directory that the project's instruction files make, as
 * Claude Code lists them in its "Allow external CLAUDE.md file imports?" dialog: what a discovery
 * with imports from outside approved would read, of files that are not the user's own (whose
 * imports are always read), outside the working directory, each with the file that imports it.
 */
import { isInside } from '../../base/paths.js';
import { discoverInstructions, type DiscoverOptions } from './discover.js';

export function externalImports(o: DiscoverOptions): Array<{ path: string; parent: string }> {
  const { files } = discoverInstructions({ ...o, externalApproved: true, externalDeclined: false });
  return files.flatMap((f) => (f.type !== 'User' && f.parent && !isInside(f.path, o.cwd) ? [{ path: f.path, parent: f.parent }] : []));
}
