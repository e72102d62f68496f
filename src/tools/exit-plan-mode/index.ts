/**
 * ExitPlanMode in Claude Code 2.1's shape: in plan mode the model writes its plan to the session's
 * plan file (settings/plan-file.ts: under `plansDirectory`, else ~/.claude/plans) and calls this
 * with no input; the plan is read from the file and shown to the person, who approves it with the
 * mode to go on in (the app's dialog; `PermissionAnswer.mode`) or says how to change it. An older
 * model's `plan` argument is still taken, and written to the plan file. Approval is the permission
 * prompt (checkPermissions always asks); once the call ran, the loop leaves plan mode
 * (`modeAfter`). A "no" comes back to the model as a denial it can act on.
 */
import { readFileSync } from 'node:fs';
import { writeAtomic } from '../../base/fs/atomic-write.js';
import { ToolError } from '../../base/errors.js';
import { defineTool, lazySchema, type ToolContext } from '../../base/tool.js';
import { sessionPlanFile } from '../../settings/plan-file.js';

export interface ExitPlanModeInput {
  /** Claude Code 2.0's shape: the plan itself. 2.1 reads it from the plan file. */
  plan?: string;
}

export interface ExitPlanModeOutput {
  approved: true;
  plan: string;
  /** Where the plan is kept. */
  file?: string;
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    plan: z.string().min(1, 'the plan is empty').optional().describe('Leave it out: the plan is read from your plan file.'),
  }),
);

const DESCRIPTION = `Use this tool when you are in plan mode and have finished writing your plan to the plan file and are ready for user approval.
- The plan is read from the plan file you were given when plan mode began: write it there first (Write), then call this tool with no arguments.
- Only use it for tasks that need changes to files or commands that change something; for research-only questions, just answer.
- Call it once the plan is complete and unambiguous; if something is unclear, use AskUserQuestion first. Do not ask "Is this plan okay?" in text: this tool asks.
- On approval, plan mode ends and you can start making the changes. If the user declines, revise the plan from their feedback.`;

/** The plan file's text, or nothing when it is missing or empty. */
export function readPlanFile(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return text.trim() ? text : undefined;
  } catch {
    return undefined;
  }
}

/** What the permission prompt shows: the plan from the input or its file. */
export function planToApprove(
  input: ExitPlanModeInput,
  ctx: Pick<ToolContext, 'sessionId' | 'projectRoot' | 'homeDir' | 'env' | 'settings'>,
): string | undefined {
  return input.plan ?? readPlanFile(sessionPlanFile(ctx));
}

export const exitPlanModeTool = defineTool<ExitPlanModeInput, ExitPlanModeOutput>({
  name: 'ExitPlanMode',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  async validateInput(input, ctx) {
    if (ctx.permissionMode !== 'plan') {
      return { ok: false, message: 'plan mode is not on: ExitPlanMode only presents a plan for approval in plan mode. Go ahead with the task.' };
    }
    if (!planToApprove(input, ctx))
      return { ok: false, message: `there is no plan to approve: write your plan to ${sessionPlanFile(ctx)} first (Write), then call ExitPlanMode again.` };
    return { ok: true };
  },
  askPreview: (input, ctx) => planToApprove(input, ctx),
  async checkPermissions() {
    return { behavior: 'ask', reason: 'approve this plan to leave plan mode and let changes begin', suggestions: [] };
  },
  // eslint-disable-next-line require-yield
  async *call(input, ctx) {
    const file = sessionPlanFile(ctx);
    const plan = planToApprove(input, ctx);
    if (!plan) throw new ToolError('execution_failed', `the plan file ${file} is empty or missing`);
    // An older model's plan is kept in the file; the approval counts even when it cannot be written.
    const kept =
      input.plan === undefined
        ? true
        : await writeAtomic(file, Buffer.from(plan.endsWith('\n') ? plan : `${plan}\n`), { createParents: true }).then(
            () => true,
            () => false,
          );
    return { approved: true, plan, ...(kept ? { file } : {}) };
  },
  toModelResult(output) {
    const saved = output.file ? `\n\nYour plan has been saved to: ${output.file}\nYou can refer back to it if needed during implementation.` : '';
    return {
      content: `User has approved your plan. You can now start coding. Start with updating your todo list if applicable${saved}\n\n## Approved Plan:\n${output.plan}`,
    };
  },
  summary(input) {
    const first = input.plan?.split('\n').find((l) => l.trim() !== '') ?? 'the plan file';
    return `Plan: ${first.trim().slice(0, 100)}`;
  },
  // An approved plan ends plan mode in the mode the person chose (the prompt asks them; their yes is the approval).
  modeAfter: (output, current, chosen) => (output.approved && current === 'plan' ? (chosen ?? 'default') : undefined),
  display(output) {
    return { summary: output.file ? `Plan approved (saved in ${output.file})` : 'Plan approved', preview: output.plan };
  },
});
