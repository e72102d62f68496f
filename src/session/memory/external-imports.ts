/**
 * The imports from outside the working directory that the project's instruction files make, as
 * Claude Code lists them in its "Allow external CLAUDE.md file imports?" dialog: what a discovery
 * with imports from outside approved would read, of files that are not the user's own (whose
 * imports are always read), outside the working directory, each with the file that imports it;
 * and the project rules that are links to files outside it (no file imports those).
 */
import { isInside } from '../../base/paths.js';
import { discoverInstructions, type DiscoverOptions } from './discover.js';

export function externalImports(o: DiscoverOptions): Array<{ path: string; parent?: string }> {
  const { files } = discoverInstructions({ ...o, externalApproved: true, externalDeclined: false });
  const linked = new Set(
    discoverInstructions({ ...o, externalApproved: false, externalDeclined: false })
      .skipped.filter((s) => s.external && !s.parent)
      .map((s) => s.path),
  );
  return files.flatMap((f) => {
    if (f.type === 'User' || isInside(f.path, o.cwd)) return [];
    if (f.parent) return [{ path: f.path, parent: f.parent }];
    return linked.has(f.path) ? [{ path: f.path }] : [];
  });
}
