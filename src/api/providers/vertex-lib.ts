/**
 * The Vertex AI client, loaded on first use. The main bundle swaps this module for one that loads
 * its own bundle from V8's code cache (build.mjs), so a run on another provider never reads it;
 * running the sources, it is a plain import.
 */
export function vertexLib(): Promise<typeof import('./vertex-parts.js')> {
  return import('./vertex-parts.js');
}
