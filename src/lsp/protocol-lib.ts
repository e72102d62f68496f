/**
 * The language server client and its protocol library, loaded on first use. The main bundle swaps this module for
 * one that loads its own bundle from V8's code cache (build.mjs), so a session that starts no
 * language server never reads it; running the sources, it is a plain import.
 */
import * as protocol from './protocol-parts.js';

export function lspProtocolLib(): typeof protocol {
  return protocol;
}
