/**
 * Skill: the model runs one of the project's or the person's skills (`.claude/skills/<name>/SKILL.md`,
 * skills.ts); its expanded text comes back as the result, to follow. A skill that grants no tools
 * runs at once; one with `allowed-tools` asks first unless a `Skill(name)` rule allows it. Inline shell in a skill (`!`cmd``) runs only when the person types
 * the skill as a slash command; here it runs too, through the gates, with the skill's allowed-tools
 * as allow rules (a command they do not allow is left as written, with the reason).
 */
import { expandCustomCommand, type ExpandContext, type RunInlineBash } from '../../commands/custom-commands.js';
import type { CustomCommand } from '../../commands/types.js';
import { expandInlineShell, hasInlineShell, inlineBashVia } from '../../commands/inline-shell.js';
import { loadSkills } from '../../commands/skills.js';
import { parseRule, type ParsedRule } from '../../base/rule-parse.js';
import { userConfigDir } from '../../settings/paths.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { wildcardMatch } from '../../permissions/wildcard.js';

export interface SkillInput {
  skill: string;
  args?: string;
}

export interface SkillOutput {
  name: string;
  dir: string;
  text: string;
  inlineShellLeft: boolean;
  /** Its `allowed-tools`: allow rules for the rest of the run the person's prompt started. */
  allowedTools: string[];
  /** Why its inline shell did not run (the gates refused a command). */
  refused?: string;
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    skill: z.string().min(1, 'skill is empty').describe('The name of the skill, e.g. "pdf" or "review"'),
    args: z.string().optional().describe('Arguments for the skill, if it takes any'),
  }),
);

/** Skills the model may run, from where the session works. */
export function modelSkills(projectRoot: string, configDir: string | undefined): CustomCommand[] {
  return loadSkills(projectRoot, configDir).filter((s) => s.modelInvocable !== false);
}

const nameOf = (input: SkillInput) => input.skill.trim().replace(/^\//, '');

export const skillTool = defineTool<SkillInput, SkillOutput>({
  name: 'Skill',
  description: (ctx) => describe(modelSkills(ctx.projectRoot ?? ctx.cwd, ctx.configDir)),
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  async validateInput(input, ctx) {
    const skills = modelSkills(ctx.projectRoot, configDirOf(ctx));
    if (skills.some((s) => s.name === nameOf(input))) return { ok: true };
    return {
      ok: false,
      message: `there is no skill "${nameOf(input)}"${skills.length ? `. Skills: ${skills.map((s) => s.name).join(', ')}` : ': no skills are installed'}.`,
    };
  },
  matchRules(input, rules: ParsedRule[], list) {
    const name = nameOf(input);
    const prefixed = (r: ParsedRule) => r.specifier?.endsWith(':*') && name.startsWith(r.specifier.slice(0, -2));
    // Claude Code reads `*` literally in a Skill rule; a deny or ask rule takes it as a wildcard (fail closed).
    const wild = (r: ParsedRule) => list !== 'allow' && wildcardMatch(r.specifier!.replace(/:\*$/, '*'), name);
    return rules.find((r) => r.specifier === name || prefixed(r) || wild(r));
  },
  async checkPermissions(input, ctx) {
    // As in Claude Code: a skill that grants no tools runs without asking.
    const skill = modelSkills(ctx.projectRoot, configDirOf(ctx)).find((s) => s.name === nameOf(input));
    if (skill && skill.allowedTools.length === 0) return { behavior: 'allow', reason: 'the skill grants no tools' };
    return { behavior: 'ask', reason: `the model wants to use the skill ${nameOf(input)}`, suggestions: [`Skill(${nameOf(input)})`] };
  },
  // eslint-disable-next-line require-yield
  async *call(input, ctx) {
    const skill = modelSkills(ctx.projectRoot, configDirOf(ctx)).find((s) => s.name === nameOf(input))!;
    return renderSkill(skill, input.args ?? '', { projectDir: ctx.projectRoot, sessionId: ctx.sessionId }, ctx.runGatedCall && inlineBashVia(ctx.runGatedCall));
  },
  contextChange(out) {
    if (!out.allowedTools.length) return undefined;
    const granted = out.allowedTools.map((r) => parseRule(r, 'session'));
    return (state) => {
      state.turnAllow = [...(state.turnAllow ?? []), ...granted];
    };
  },
  toModelResult(out) {
    return { content: skillTextForModel(out) };
  },
  summary: (input) => `${nameOf(input)}${input.args ? ` ${input.args}` : ''}`,
  display: (out) => ({ summary: `Loaded the skill ${out.name}` }),
});

/** A skill's text with `args` filled in and its inline shell run through the gates by `run` (left as written without one). */
export async function renderSkill(skill: CustomCommand, args: string, ctx: ExpandContext, run?: RunInlineBash): Promise<SkillOutput> {
  const text = expandCustomCommand(skill, args, ctx);
  const out = { name: skill.name, dir: skill.skillDir ?? '', text, inlineShellLeft: hasInlineShell(text), allowedTools: skill.allowedTools };
  if (!out.inlineShellLeft || !run) return out;
  const expanded = await expandInlineShell(text, (command) => run(command, skill.allowedTools));
  return expanded.ok ? { ...out, text: expanded.text, inlineShellLeft: false } : { ...out, refused: expanded.message };
}

/** What the model reads of a skill: its folder and text, and why its inline shell did not run. */
export function skillTextForModel(out: SkillOutput): string {
  const why = out.refused ? ` (${out.refused})` : '';
  const note = out.inlineShellLeft ? `\n\n(Its inline shell commands, !\`…\`, were not run${why}: run them with Bash if you need their output.)` : '';
  return `Base directory for this skill: ${out.dir}\n\n${out.text}${note}`;
}

function configDirOf(ctx: { env: Record<string, string | undefined>; homeDir: string }): string {
  return userConfigDir(ctx.homeDir, ctx.env.CLAUDE_CONFIG_DIR || undefined);
}

function describe(skills: CustomCommand[]): string {
  const list = skills.map((s) => `- ${s.name}: ${s.description}${s.whenToUse ? ` (when: ${s.whenToUse})` : ''}`).join('\n');
  return `Run a skill: a set of instructions (and often scripts or reference files in its folder) for a kind of task. Its text comes back as the result; follow it.

When a skill below matches the task, use it before anything else, and do not merely mention it. Do not use this for built-in commands such as /help or /clear, or for a skill that is already running.

Skills:
${list || '(none)'}`;
}
