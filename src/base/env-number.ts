/**
 * A number from an environment variable, read as Claude Code reads its numeric variables: plain
 * digits, scientific notation (`2e3`) and digit separators (`64_000`). Undefined when unset, empty,
 * or not a positive finite number, so the caller's default applies.
 */
export function positiveEnvNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().replace(/(\d)_(?=\d)/g, '$1');
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** On/off variables: `1`, `true`, `yes`, `on` (any casing) turn a behaviour on. */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}
