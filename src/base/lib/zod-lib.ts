/**
 * zod, for the code that builds schemas at run time. The main bundle swaps this module for one that
 * loads zod on the first call (build.mjs), so a run that validates no tool input never initialises
 * zod at all; running the sources, it is a plain import.
 */
import * as parts from './zod-parts.js';

export function zodLib(): typeof parts {
  return parts;
}
