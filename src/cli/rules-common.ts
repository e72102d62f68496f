/** What the `wicket rules` commands share: their usage, and how they stop on settings that cannot be read. */

export const RULES_USAGE = `usage: wicket rules explain 'Tool(specifier)' | wicket rules explain Tool '<json input>'   [--hooks] [--json]
       wicket rules test [--settings candidate.json] [--since 30d] [--session ID…] [--hooks] [--json]
       wicket rules suggest [--since 30d] [--min N] [--json]`;

/** The settings' warnings (an untrusted folder's allow rules left out…), then whether any file cannot be read. */
export function settingsProblems(env: { errors: string[]; loaded: { warnings: string[] } }): number | undefined {
  for (const w of env.loaded.warnings) process.stderr.write(`wicket: warning: ${w}\n`);
  return settingsErrors(env.errors);
}

/** The settings' files that cannot be read: nothing is judged on a policy that is only partly there. */
export function settingsErrors(errors: string[]): number | undefined {
  if (!errors.length) return undefined;
  for (const e of errors) process.stderr.write(`wicket: ${e}\n`);
  process.stderr.write('wicket: rules: a settings file cannot be read; fix it first (its rules would be missing from the answer)\n');
  return 2;
}
