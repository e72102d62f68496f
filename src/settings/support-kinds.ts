/** The words of the support tables (support-settings.ts, support-env.ts). */

export type SupportStatus = 'supported' | 'not supported' | 'not yet' | 'Anthropic only';

export interface Support {
  status: SupportStatus;
  /** What wicket does with it, in a few words. */
  what: string;
  /** For a supported key or variable: the values wicket does not honour (each warns). */
  warnWhen?: (value: unknown) => boolean;
}

/** wicket does what the key or variable says (`warnWhen`: except for these values). */
export const yes = (what: string, warnWhen?: (value: unknown) => boolean): Support => ({ status: 'supported', what, ...(warnWhen ? { warnWhen } : {}) });
/** wicket does not: loading it prints one warning naming it. */
export const no = (what: string): Support => ({ status: 'not supported', what });
/** Being added to wicket; meanwhile it warns like an unsupported one. */
export const later = (what: string): Support => ({ status: 'not yet', what });
/** Meaningful only with Anthropic's own services or Claude Code's own apps: no warning. */
export const cloud = (what: string): Support => ({ status: 'Anthropic only', what });

/** Whether loading it warns (for a supported one: whether this value does). */
export function warns(s: Support, value: unknown): boolean {
  if (s.status === 'not supported' || s.status === 'not yet') return true;
  return s.status === 'supported' && s.warnWhen !== undefined && s.warnWhen(value);
}
