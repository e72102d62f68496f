/**
 * execa, for the code that runs commands (Bash, hooks, the sandbox probe), loaded on first use. The
 * main bundle swaps this module for one that loads execa's own bundle from V8's code cache
 * (build.mjs), so a run that starts no command never reads it; running the sources, it is a plain
 * import.
 */
export function execaLib(): Promise<typeof import('execa')> {
  return import('execa');
}
