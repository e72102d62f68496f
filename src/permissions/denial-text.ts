/**
 * The words of a refusal: which gate said no, why, and what would let the call run. Pieces are
 * joined here so that no sentence ends twice ("…settings.json.. Do not retry").
 */

/** Where an allow rule goes, for a person who wants the call to run. */
export const ALLOW_PLACES = 'permissions.allow in .claude/settings.json';

/** `text` without the punctuation and spaces it ends with. */
export function unpunctuated(text: string): string {
  return text.replace(/[\s.;:,]+$/u, '');
}

/** Sentences joined with one full stop each; empty pieces are left out. */
export function sentences(...parts: Array<string | undefined>): string {
  const kept = parts.map((p) => (p === undefined ? '' : unpunctuated(p.trim()))).filter(Boolean);
  return kept.length ? `${kept.join('. ')}.` : '';
}

/**
 * What lets the call run: the suggested rules when there are some (all of them are needed), given
 * on the command line or in the settings; without any, a rule for the tool.
 */
export function allowHint(toolName: string, suggestions: readonly string[]): string {
  if (!suggestions.length) return `allow it with a rule for ${toolName} in --allowedTools or in ${ALLOW_PLACES}`;
  const quoted = suggestions.map((r) => `"${r}"`);
  const listed = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : quoted[0];
  return `allow it with --allowedTools ${quoted.join(' ')} or by adding ${listed} to ${ALLOW_PLACES}`;
}

/** For calls no allow rule can approve (ask rules, protected paths, tools that always ask). */
export const PERSON_ONLY = 'an allow rule cannot approve it: only a person can, in a session that asks (not print mode, not dontAsk mode)';

/**
 * A call that needed permission when nobody could give it: that, what would let it run, and why
 * it asked ("…print mode has no one to ask; allow it with … Why it asks: …").
 */
export function unaskedDenial(nobody: string, whatToDo: string, whyItAsks: string): string {
  return sentences(`this call needs permission and ${nobody}; ${whatToDo}`, `Why it asks: ${whyItAsks}`);
}

export const DONT_ASK = 'dontAsk mode denies whatever would ask';
export const PRINT_MODE = 'print mode has no one to ask';

/** What the model may do after a denial; `noPerson` when there is no one it could turn to. */
const AFTER_DENIAL = 'Do not retry the same call; choose another way or ask the user';
const AFTER_DENIAL_NO_PERSON = 'Do not retry the same call; choose another way, or say in your answer which permission the task needs';

/** The permission gate's refusal: the tool, the reason, and what to do next. */
export function permissionDenial(toolName: string, reason: string, noPerson: boolean): string {
  return sentences(`Permission to use ${toolName} was denied: ${reason}`, noPerson ? AFTER_DENIAL_NO_PERSON : AFTER_DENIAL);
}

/**
 * The person said no and stopped the turn (the app's Esc or "No"): nothing ran, and the model waits
 * for them, as Claude Code's "STOP what you are doing and wait for the user".
 */
export function rejectedByPerson(toolName: string): string {
  return sentences(
    `The user doesn't want to proceed with this tool use: permission to use ${toolName} was denied by the user, who stopped the turn`,
    'The call did not run (for a file edit: nothing was written to the file)',
    'STOP what you are doing and wait for the user to tell you how to proceed',
  );
}
