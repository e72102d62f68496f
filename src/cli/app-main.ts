/**
 * The entry of the app's bundle (dist/cli/app.cjs): the command line's `main` with the interactive
 * app in the same bundle (build.mjs swaps app-lib.ts there for a static import of the app). The entry
 * runs it in place of the main bundle when the run is likely interactive, so the app's start reads
 * and deserialises one bundle and one code cache; print mode runs the main bundle, without the app.
 */
export { main } from './main.js';
/** The app, for the main bundle when its guess was wrong and the run opened the app after all. */
export { appLib } from './app-lib.js';
