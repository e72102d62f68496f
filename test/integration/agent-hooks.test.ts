/** Hooks of type "agent" through the built binary: the fake Messages API scripts both the session and the hook's sub-agent. */
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'TODO.md': '- [ ] run the tests\n' } });
type Body = { model: string; system?: Array<{ text: string }>; tools?: Array<{ name: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const settings = (hooks: object) => t.project.write('.claude/settings.json', JSON.stringify({ hooks }));

describe('agent hooks', () => {
  it("a Stop agent hook reads the project, says no through StructuredOutput and sends the agent back; its cost is the session's", async () => {
    await settings({
      Stop: [{ hooks: [{ type: 'agent', prompt: 'Is every item of TODO.md done? $ARGUMENTS' }] }],
      // Its own Read must not start another agent hook.
      PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'agent', prompt: 'Is this read fine?' }] }],
    });
    t.api.script(
      reply().text('All done.'),
      reply()
        .toolUse('Read', { file_path: t.project.path('TODO.md') }, { id: 'toolu_todo' })
        .usage({ input_tokens: 1000, output_tokens: 50 }),
      reply().toolUse('StructuredOutput', { ok: false, reason: 'TODO.md still lists "run the tests".' }),
      reply().text('Verdict given.'),
      reply().text('Ran the tests and ticked the item. Done.'),
      reply().text('{"ok": true}'),
    );
    const r = await t.run(['-p', 'finish the work', '--output-format', 'json', '--model', 'opus']);
    expectExit(r, 0);
    const out = r.json<any>();
    expect(out.result).toBe('Ran the tests and ticked the item. Done.');
    const all = bodies();
    expect(all).toHaveLength(6);
    const [, check, , , resumed, check2] = all;
    expect(check!.model).toMatch(/haiku/);
    expect(check!.tools!.map((x) => x.name).sort()).toEqual(['Glob', 'Grep', 'Read', 'StructuredOutput']);
    expect(check!.system!.map((b) => b.text).join('\n')).toContain('StructuredOutput');
    const asked = JSON.stringify(check!.messages[0]!.content);
    expect(asked).toContain('Is every item of TODO.md done?');
    expect(asked).toContain('\\"hook_event_name\\":\\"Stop\\"');
    // The read went through without asking (read-only, inside the project).
    expect(JSON.stringify(toolResultIn(all[2], 'toolu_todo').content)).toContain('run the tests');
    expect(JSON.stringify(resumed!.messages.at(-1))).toContain('TODO.md still lists \\"run the tests\\".');
    expect(JSON.stringify(check2!.messages[0]!.content)).toContain('stop_hook_active\\":true');
    // The sub-agent's requests count toward the session's usage and cost.
    const haiku = Object.entries(out.modelUsage).find(([m]) => /haiku/.test(m));
    expect(haiku?.[1]).toMatchObject({ inputTokens: expect.any(Number) });
    expect((haiku![1] as { inputTokens: number }).inputTokens).toBeGreaterThanOrEqual(1000);
  });

  it("the hook's sub-agent may read the session's transcript (outside the project), and nothing else outside it", async () => {
    await settings({ Stop: [{ hooks: [{ type: 'agent', prompt: 'Did the agent say it was done? $ARGUMENTS' }] }] });
    const transcriptOf = (body: Body) => /transcript_path\\":\\"([^"\\]+)/.exec(JSON.stringify(body.messages[0]!.content))![1]!;
    t.api.script(
      reply().text('All done, the work is finished.'),
      reply((req) =>
        reply()
          .toolUse('Read', { file_path: transcriptOf(req.body as Body) }, { id: 'toolu_tr' })
          .toolUse('Read', { file_path: '/etc/hostname' }, { id: 'toolu_etc' }),
      ),
      reply().toolUse('StructuredOutput', { ok: true }),
      reply().text('Verdict given.'),
    );
    const r = await t.run(['-p', 'finish the work']);
    expectExit(r, 0);
    const third = bodies()[2]!;
    const transcript = toolResultIn(third, 'toolu_tr');
    expect(transcript.is_error).toBeFalsy();
    expect(JSON.stringify(transcript.content)).toContain('finish the work');
    const outside = toolResultIn(third, 'toolu_etc');
    expect(outside.is_error).toBe(true);
    expect(JSON.stringify(outside.content)).toContain("a hook's check cannot ask");
  });

  it('a PreToolUse agent hook that says no denies the call; the model reads why and goes on', async () => {
    await settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'agent', prompt: 'May this file be written? $ARGUMENTS', model: 'sonnet' }] }] });
    t.api.script(
      reply().toolUse('Write', { file_path: t.project.path('b.txt'), content: 'x' }, { id: 'toolu_w' }),
      reply().text('{"ok": false, "reason": "b.txt is generated; edit the template instead."}'),
      reply().text('Understood, I will edit the template.'),
    );
    const r = await t.run(['-p', 'write b', '--permission-mode', 'acceptEdits']);
    expectExit(r, 0);
    expect(t.project.exists('b.txt')).toBe(false);
    const [, check, after] = bodies();
    expect(check!.model).toMatch(/sonnet/);
    const result = toolResultIn(after, 'toolu_w');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('b.txt is generated; edit the template instead.');
    expect(r.stdout).toContain('Understood, I will edit the template.');
  });

  it('a sub-agent that gives no verdict decides nothing: a warning, and the session goes on', async () => {
    await settings({ Stop: [{ hooks: [{ type: 'agent', prompt: 'Check the work.' }] }] });
    t.api.script(reply().text('Done.'), reply().text('I am not sure.'));
    const r = await t.run(['-p', 'work']);
    expectExit(r, 0);
    expect(r.stdout).toContain('Done.');
    expect(r.stderr).toContain('the sub-agent\'s answer is not {"ok": true|false');
  });
});
