#!/bin/sh
":" //; if [ -n "$NODE_EXTRA_CA_CERTS" ]; then export WICKET_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; unset NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"
// The line above is for the shell, which starts this file with Node; to JavaScript it is a string
// and a comment. Node reads NODE_EXTRA_CA_CERTS before any code runs and builds its whole
// certificate store then, even for a run that opens no TLS connection; the shell hands the variable
// over under another name, and wicket adds those certificates when it first needs TLS
// (src/api/extra-ca.ts). `node bin/wicket.js` works too, with Node reading the variable itself.

// CommonJS (see package.json here): a start without the ES module loader is faster.
try {
  require.resolve('../dist/cli/entry.cjs');
} catch {
  process.stderr.write('wicket: not built yet: run `npm install` (or `npm run build`) in the wicket folder\n');
  process.exit(1);
}
require('../dist/cli/entry.cjs');
