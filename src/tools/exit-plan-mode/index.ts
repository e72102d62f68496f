/**
 * ExitPlanMode: in plan mode, the model presents its plan and asks the person to approve it. The tool
 * changes nothing in the project; approval is the permission prompt (checkPermissions always asks). Once the
 * call ran — i.e. the person said yes — its output is `{ approved: true }`, and the loop leaves plan
 * mode (see `isPlanApproval`). A "no" comes back to the model as a denial it can act on. An approved
 * plan is kept as a file in the plans folder (plan-file.ts, settings `plansDirectory`).
 */
import { defineTool, lazySchema } from '../../base/tool.js';
import { savePlan } from './plan-file.js';

export interface ExitPlanModeInput {
  plan: string;
}

export interface ExitPlanModeOutput {
  approved: true;
  plan: string;
  /** Where the plan was saved. */
  file?: string;
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    plan: z.string().min(1, 'the plan is empty').describe('The plan you want the user to approve: concise, in Markdown, listing the changes you will make.'),
  }),
);

const DESCRIPTION = `Use this tool when you are in plan mode and have finished planning: it shows your plan to the user and asks them to approve it.
- Only use it for tasks that need changes to files or commands that change something; for research-only questions, just answer.
- Call it once the plan is complete and unambiguous; if something is unclear, ask the user first.
- On approval, plan mode ends and you can start making the changes. If the user declines, revise the plan from their feedback.`;

export const exitPlanModeTool = defineTool<ExitPlanModeInput, ExitPlanModeOutput>({
  name: 'ExitPlanMode',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  async validateInput(_input, ctx) {
    if (ctx.permissionMode !== 'plan') {
      return { ok: false, message: 'plan mode is not on: ExitPlanMode only presents a plan for approval in plan mode. Go ahead with the task.' };
    }
    return { ok: true };
  },
  async checkPermissions() {
    return { behavior: 'ask', reason: 'approve this plan to leave plan mode and let changes begin', suggestions: [] };
  },
  // eslint-disable-next-line require-yield
  async *call(input, ctx) {
    // The plan is kept even when its file cannot be written: the approval is what counts.
    const file = await savePlan(input.plan, ctx).catch(() => undefined);
    return { approved: true, plan: input.plan, ...(file ? { file } : {}) };
  },
  toModelResult(output) {
    const saved = output.file ? ` It is saved in ${output.file}.` : '';
    return {
      content: `The user approved your plan. Plan mode is off: you can now start making the changes.${saved}\n\n## Approved plan\n${output.plan}`,
    };
  },
  summary(input) {
    const first = input.plan.split('\n').find((l) => l.trim() !== '') ?? '';
    return `Plan: ${first.trim().slice(0, 100)}`;
  },
  display(output) {
    return { summary: output.file ? `Plan approved (saved in ${output.file})` : 'Plan approved', preview: output.plan };
  },
});

/** True when a finished call is an approved ExitPlanMode: the loop then sets the mode to default. */
export function isPlanApproval(toolName: string, output: unknown): boolean {
  return toolName === 'ExitPlanMode' && typeof output === 'object' && output !== null && (output as { approved?: unknown }).approved === true;
}
