#!/usr/bin/env node
// CommonJS (see package.json here): a start without the ES module loader is faster.
try {
  require.resolve('../dist/cli/entry.cjs');
} catch {
  process.stderr.write('wicket: not built yet: run `npm install` (or `npm run build`) in the wicket folder\n');
  process.exit(1);
}
require('../dist/cli/entry.cjs');
