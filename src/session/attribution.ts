/**
 * Settings `attribution` (`commit`, `pr`) and the older `includeCoAuthoredBy`: what the model adds to
 * the git commits and pull requests it makes. Claude Code says so in its system prompt, and so does
 * wicket: a non-empty text is to end each commit message (its trailers included) or pull request
 * description; an empty one means nothing at all, no co-author trailer and no "generated with" line.
 * With neither key set wicket asks for nothing either way.
 */

/** What `includeCoAuthoredBy: true` stands for. */
export const DEFAULT_ATTRIBUTION = 'Generated with wicket';

export interface Attribution {
  commit?: string;
  pr?: string;
}

export function attributionOf(settings: Record<string, unknown>): Attribution {
  const a = settings.attribution;
  const out: Attribution = {};
  if (settings.includeCoAuthoredBy === true) Object.assign(out, { commit: DEFAULT_ATTRIBUTION, pr: DEFAULT_ATTRIBUTION });
  if (settings.includeCoAuthoredBy === false) Object.assign(out, { commit: '', pr: '' });
  if (a && typeof a === 'object' && !Array.isArray(a)) {
    const { commit, pr } = a as Record<string, unknown>;
    if (typeof commit === 'string') out.commit = commit;
    if (typeof pr === 'string') out.pr = pr;
  }
  return out;
}

/** The system prompt's paragraph on attribution; empty when the settings say nothing. */
export function attributionPrompt(settings: Record<string, unknown>): string {
  const { commit, pr } = attributionOf(settings);
  const lines: string[] = [];
  if (commit !== undefined)
    lines.push(commit ? `- When you create a git commit, end its message with a blank line and then exactly:\n${commit}` : NONE('git commits'));
  if (pr !== undefined)
    lines.push(pr ? `- When you open a pull request, end its description with a blank line and then exactly:\n${pr}` : NONE('pull requests'));
  return lines.length ? `Attribution (from the user's settings):\n${lines.join('\n')}` : '';
}

const NONE = (what: string) => `- Add no attribution to ${what}: no Co-Authored-By trailer, no "generated with" line, no mention of an assistant.`;
