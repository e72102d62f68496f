// AskUserQuestion through the real Agent SDK: with canUseTool the tool is offered, and the host's
// answer (allow with updatedInput carrying `answers`) reaches the model as Claude Code words it;
// without canUseTool the tool is not offered, as Claude Code leaves it out.
import type { CanUseTool } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { sdkRun } from '../../support/sdk-harness.js';

const t = useApiAndProject({ files: {} });

const QUESTIONS = {
  questions: [
    {
      question: 'Which library?',
      header: 'Library',
      options: [
        { label: 'date-fns', description: 'small' },
        { label: 'luxon', description: 'zones' },
      ],
      multiSelect: false,
    },
  ],
};

const toolNames = (i: number) => ((t.api.messageRequests()[i]!.body as { tools?: Array<{ name: string }> }).tools ?? []).map((x) => x.name);

describe('AskUserQuestion in the SDK', () => {
  it('canUseTool answers it with updatedInput.answers; the model reads the answer', async () => {
    t.api.script(reply().toolUse('AskUserQuestion', QUESTIONS, { id: 'toolu_q1' }), reply().text('luxon it is'));
    const canUseTool: CanUseTool = async (_tool, input) => ({ behavior: 'allow', updatedInput: { ...input, answers: { 'Which library?': 'luxon' } } });
    const run = await sdkRun(t, 'Pick a library.', { canUseTool });
    expect(run.error).toBeUndefined();
    expect(toolNames(0)).toContain('AskUserQuestion');
    expect(JSON.stringify(toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_q1'))).toContain(
      'User has answered your questions: \\"Which library?\\"=\\"luxon\\"',
    );
  });

  it('without canUseTool it is not offered', async () => {
    t.api.script(reply().text('ok'));
    const run = await sdkRun(t, 'Hello.', {});
    expect(run.error).toBeUndefined();
    expect(toolNames(0)).not.toContain('AskUserQuestion');
    expect(toolNames(0)).not.toContain('ExitPlanMode');
  });
});
