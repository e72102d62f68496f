export const SCHEMA_FILE: string;
export const VALIDATOR_FILE: string;
export const NAMES_FILE: string;
export function namesSource(full: unknown): string;
export function leanSchema(full: unknown): Record<string, unknown>;
export function validatorSource(full: unknown): string;
export function writeValidator(): void;
