/** The settings validator made by scripts/settings-schema.mjs (ajv standalone code, one function per key). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export interface KeyValidator {
  (value: unknown): boolean;
  errors?: SchemaError[] | null;
}
export const KNOWN_KEYS: readonly string[];
export const DOCUMENTED_ENV: readonly string[];
/** The validator of each top-level key's value. */
export const BY_KEY: Readonly<Record<string, KeyValidator>>;
