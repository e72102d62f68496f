/**
 * jsonc-parser, for settings written as JSONC and for the place of a problem in a settings file. The
 * main bundle swaps this module for one that loads it on the first call (build.mjs): plain JSON goes
 * through V8's parser, and the package's start-up tables (a few hundred kilobytes of indentation
 * strings) are not built in a run that never needs it.
 */
import * as jsonc from 'jsonc-parser';

export function jsoncLib(): typeof jsonc {
  return jsonc;
}
