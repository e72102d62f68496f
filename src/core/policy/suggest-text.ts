/**
 * `rules suggest` for a project, as both faces show it: the proposals mined from its sessions, and
 * the words around them (`wicket rules suggest` prints them, the app's `/permissions suggest` lists
 * them to pick from).
 */
import { dryEnv } from './dry-env.js';
import { projectPlaces } from './places.js';
import { recordedCalls } from './recorded.js';
import { suggestAllowRules, type Proposal } from './suggest.js';

export interface ProjectProposals {
  proposals: Proposal[];
  /** Settings files that cannot be read: nothing was judged. */
  errors: string[];
  warnings: string[];
}

/** The allow rules to propose for the project at `where.cwd`, from its sessions since `sinceMs`. */
export async function projectProposals(
  where: { cwd: string; env: Record<string, string | undefined> },
  opts: { sinceMs?: number; min?: number } = {},
): Promise<ProjectProposals> {
  const calls = recordedCalls(projectPlaces(where.cwd, where.env), opts.sinceMs !== undefined ? { sinceMs: opts.sinceMs } : {});
  const env = dryEnv({ cwd: where.cwd, env: where.env, mcpNames: calls.map((c) => c.name) });
  if (env.errors.length) return { proposals: [], errors: env.errors, warnings: env.loaded.warnings };
  return { proposals: await suggestAllowRules(calls, env, { min: opts.min ?? 2 }), errors: [], warnings: env.loaded.warnings };
}

export const NOTHING_TO_SUGGEST = 'No allow rule to suggest: no call was approved often enough that the current settings would still ask about.';

/** The riskiest call a proposal covers, in one line of at most 70 characters. */
export function riskiestText(p: Proposal): string {
  const input = p.riskiest.input as Record<string, unknown>;
  const shown = typeof input?.command === 'string' ? input.command : JSON.stringify(p.riskiest.input);
  return shown.length > 70 ? `${shown.slice(0, 67)}...` : shown;
}

export function proposalsText(proposals: readonly Proposal[]): string {
  if (!proposals.length) return `${NOTHING_TO_SUGGEST}\n`;
  const width = Math.max(...proposals.map((p) => p.rule.length));
  const lines = proposals.map((p) => `  ${p.rule.padEnd(width)}  ${String(p.count).padStart(4)}×   riskiest: ${riskiestText(p)}`);
  return `Suggested allow rules (approved calls the current settings still ask about):\n${lines.join('\n')}\nAdd the ones you agree with to permissions.allow; check each riskiest call first: the rule allows it without asking.\n`;
}
