#!/bin/sh
":" //; if [ -n "$NODE_EXTRA_CA_CERTS" ]; then export WICKET_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; unset NODE_EXTRA_CA_CERTS; fi; unset WICKET_GIT_STATUS; case "$1" in -v|-V|--version|-h|--help) ;; *) c="${WICKET_HOME:-$HOME/.wicket}/cache"; d="$PWD"; while [ -n "$d" ] && [ ! -f "$d/.git" ] && [ ! -f "$d/.git/HEAD" ]; do d="${d%/*}"; done; if [ -d "$c" ] && [ -w "$c" ] && { [ -n "$d" ] || [ -n "$GIT_DIR" ]; }; then f="$c/git-status-$$"; (GIT_OPTIONAL_LOCKS=0 git status --short --branch >"$f" 2>/dev/null; echo $? >"$f.done") </dev/null >/dev/null 2>&1 & export WICKET_GIT_STATUS="$f"; fi;; esac; exec node "$0" "$@"
// The line above is for the shell, which starts this file with Node; to JavaScript it is a string
// and a comment. Node reads NODE_EXTRA_CA_CERTS before any code runs and builds its whole
// certificate store then, even for a run that opens no TLS connection; the shell hands the variable
// over under another name, and wicket adds those certificates when it first needs TLS
// (src/api/extra-ca.ts). In a git repository, the shell also starts the `git status` that the system
// prompt needs, in the background, into a file under wicket's cache: a shell forks far more cheaply
// than Node, whose spawn waits for the child's exec (src/base/git-status.ts reads the file). `node
// bin/wicket.js` works too, with Node reading the variable itself and starting git on its own.

// CommonJS (see package.json here): a start without the ES module loader is faster.
try {
  require.resolve('../dist/cli/entry.cjs');
} catch {
  process.stderr.write('wicket: not built yet: run `npm install` (or `npm run build`) in the wicket folder\n');
  process.exit(1);
}
require('../dist/cli/entry.cjs');
