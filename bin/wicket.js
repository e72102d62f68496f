#!/usr/bin/env node
// CommonJS (see package.json here): a start without the ES module loader is faster.
require("../dist/cli/entry.cjs");
