/**
 * EnterPlanMode: the model puts the session in plan mode itself, as Claude Code 2.1's tool does (no
 * permission needed: plan mode only takes rights away). The loop sets the mode once the call ran
 * (`modeAfter`); the model is told where to write its plan (the session's plan file, the one file
 * plan mode lets it edit) and to present it with ExitPlanMode.
 */
import { defineTool, lazySchema } from '../../base/tool.js';
import { sessionPlanFile } from '../../settings/plan-file.js';

export type EnterPlanModeInput = Record<string, never>;

export interface EnterPlanModeOutput {
  entered: true;
  planFile: string;
}

const inputSchema = lazySchema((z) => z.strictObject({}));

const DESCRIPTION = `Use this tool proactively when you're about to start a non-trivial implementation task. Getting user sign-off on your approach before writing code prevents wasted effort and ensures alignment.
It puts the session in plan mode: you explore the codebase with read-only tools, write your plan to the plan file you are given, and present it with ExitPlanMode for the user's approval.
Use it for new features, changes with several valid approaches, multi-file changes, or unclear requirements. Skip it for small fixes, typos, or pure research.`;

export const enterPlanModeTool = defineTool<EnterPlanModeInput, EnterPlanModeOutput>({
  name: 'EnterPlanMode',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  async validateInput(_input, ctx) {
    if (ctx.permissionMode === 'plan') return { ok: false, message: 'plan mode is already on: write your plan and present it with ExitPlanMode.' };
    return { ok: true };
  },
  async checkPermissions() {
    return { behavior: 'allow' };
  },
  // eslint-disable-next-line require-yield
  async *call(_input, ctx) {
    return { entered: true, planFile: sessionPlanFile(ctx) };
  },
  toModelResult(output) {
    return {
      content: `Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.

In plan mode, you should:
1. Thoroughly explore the codebase to understand existing patterns
2. Identify similar features and architectural approaches
3. Consider multiple approaches and their trade-offs
4. Use AskUserQuestion if you need to clarify the approach
5. Design a concrete implementation strategy
6. When ready, use ExitPlanMode to present your plan for approval

Write your plan to ${output.planFile} (create it with Write): it is the only file you may change in plan mode.
Remember: DO NOT write or edit any other files yet. This is a read-only exploration and planning phase.`,
    };
  },
  modeAfter: (output) => (output.entered ? 'plan' : undefined),
  summary: () => 'Enter plan mode',
  display: (output) => ({ summary: `Entered plan mode · the plan goes in ${output.planFile}` }),
});
