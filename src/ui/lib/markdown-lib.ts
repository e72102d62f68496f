/**
 * marked and marked-terminal (with cli-highlight), for assistant text. The app's bundle swaps this
 * module for one that loads them as a bundle of their own from V8's code cache on the first call
 * (build.mjs), so the first frame never reads them; running the sources, a plain import.
 */
export async function markdownLib(): Promise<typeof import('./markdown-parts.js')> {
  return import('./markdown-parts.js');
}
