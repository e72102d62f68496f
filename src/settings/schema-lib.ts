/**
 * The settings validator made from SchemaStore's schema (schema/validator.generated.js). The main
 * bundle swaps this module for one that loads it on the first call (build.mjs), so a run without
 * settings files never reads or initialises it.
 */
import * as validator from './schema/validator.generated.js';

export function settingsSchemaLib(): typeof validator {
  return validator;
}
