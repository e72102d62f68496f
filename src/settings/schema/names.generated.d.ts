/** The top-level settings keys and the `env` variables Claude Code's schema documents (scripts/settings-schema.mjs). */
export const KNOWN_KEYS: readonly string[];
export const DOCUMENTED_ENV: readonly string[];
