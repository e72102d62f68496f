/**
 * The Bedrock client, loaded on first use. The main bundle swaps this module for one that loads its
 * own bundle from V8's code cache (build.mjs), so a run on another provider never reads it;
 * running the sources, it is a plain import.
 */
export function bedrockLib(): Promise<typeof import('./bedrock-parts.js')> {
  return import('./bedrock-parts.js');
}
