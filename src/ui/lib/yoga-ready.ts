/**
 * Resolves once Ink's layout engine (yoga, WebAssembly) is ready; the app awaits it before its first
 * render. Running the sources, yoga-layout has loaded already (it awaits at the top level); the app's
 * bundle replaces this module by one that starts yoga without that await (build-app.mjs).
 */
export const yogaReady: Promise<void> = Promise.resolve();
