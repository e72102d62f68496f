/** The settings validator made by scripts/settings-schema.mjs (ajv standalone code). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}
export const KNOWN_KEYS: readonly string[];
export const DOCUMENTED_ENV: readonly string[];
export declare function validate(data: unknown): boolean;
export declare namespace validate {
  let errors: SchemaError[] | null | undefined;
}
export default validate;
