/**
 * The `marked` lexer, to read instruction files the way Claude Code does (HTML comment blocks, code
 * spans and fenced blocks). The main bundle swaps this module for one that loads it on the first
 * call (build.mjs): a run whose instruction files hold no `@` and no `<!--` never loads it.
 */
import * as marked from 'marked';

export function markedLib(): typeof marked {
  return marked;
}
