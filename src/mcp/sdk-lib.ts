/**
 * The MCP SDK, loaded on first use. The main bundle swaps this module for one that loads the SDK's
 * own bundle from V8's code cache (build.mjs), so a session without MCP servers never reads it;
 * running the sources, it is a plain import.
 */
export function mcpSdk(): Promise<typeof import('./sdk-parts.js')> {
  return import('./sdk-parts.js');
}
