/** Skills through the built binary: the Skill tool, its rules, and skills as slash commands. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn as toolResult, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
type Body = { tools: Array<{ name: string; description: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const run = (args: string[]) => t.run(args);
function skill(root: string, dir: string, text: string): string {
  const d = path.join(root, dir);
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, 'SKILL.md'), text);
  return d;
}
const projectSkills = () => path.join(t.project.dir, '.claude', 'skills');
const userSkills = () => path.join(t.project.home, '.claude', 'skills');

describe('skills', () => {
  it('the Skill tool lists the skills and runs one a rule allows, with its arguments and folder filled in', async () => {
    const dir = skill(
      projectSkills(),
      'pdf',
      '---\ndescription: Fill PDF forms\nwhen_to_use: a PDF form must be filled\n---\nUse ${CLAUDE_SKILL_DIR}/fill.py on $ARGUMENTS.\n',
    );
    skill(projectSkills(), 'secret', '---\ndescription: Only by hand\ndisable-model-invocation: true\n---\nx\n');
    t.api.script(reply().toolUse('Skill', { skill: 'pdf', args: 'form.pdf' }, { id: 'toolu_s' }), reply().text('ok'));
    expectExit(await run(['-p', 'fill form.pdf', '--allowedTools', 'Skill(pdf)']), 0);
    const tool = bodies()[0]!.tools.find((t) => t.name === 'Skill')!;
    expect(tool.description).toContain('- pdf: Fill PDF forms (when: a PDF form must be filled)');
    expect(tool.description).not.toContain('secret');
    expect(toolResult(bodies()[1]!, 'toolu_s').content).toBe(`Base directory for this skill: ${dir}\n\nUse ${dir}/fill.py on form.pdf.`);
  });

  it('a skill with allowed-tools asks without a rule (print mode denies, naming Skill(name)); one without runs; an unknown or hidden skill is refused', async () => {
    skill(projectSkills(), 'pdf', '---\ndescription: Fill PDF forms\nallowed-tools: Bash(pdftk:*)\n---\nbody\n');
    skill(projectSkills(), 'plain', '---\ndescription: Plain\n---\nplain body\n');
    skill(projectSkills(), 'secret', '---\ndescription: Only by hand\ndisable-model-invocation: true\n---\nx\n');
    t.api.script(
      reply()
        .toolUse('Skill', { skill: 'pdf' }, { id: 'toolu_1' })
        .toolUse('Skill', { skill: 'secret' }, { id: 'toolu_2' })
        .toolUse('Skill', { skill: 'plain' }, { id: 'toolu_3' }),
      reply().text('ok'),
    );
    expectExit(await run(['-p', 'go']), 0);
    const last = bodies().at(-1)!;
    expect(JSON.stringify(toolResult(last, 'toolu_1'))).toContain('Skill(pdf)');
    expect(toolResult(last, 'toolu_2')).toMatchObject({ is_error: true, content: expect.stringContaining('there is no skill "secret". Skills: pdf') });
    expect(JSON.stringify(toolResult(last, 'toolu_3'))).toContain('plain body');
  });

  it('a deny rule with a wildcard holds for a skill that grants no tools', async () => {
    skill(projectSkills(), 'plain', '---\ndescription: Plain\n---\nplain body\n');
    t.api.script(reply().toolUse('Skill', { skill: 'plain' }, { id: 'toolu_1' }), reply().text('ok'));
    expectExit(await run(['-p', 'go', '--disallowedTools', 'Skill(pl*)']), 0);
    const result = toolResult(bodies().at(-1)!, 'toolu_1');
    expect(result).toMatchObject({ is_error: true });
    expect(JSON.stringify(result)).not.toContain('plain body');
  });

  it('offers no Skill tool when there is no skill', async () => {
    t.api.script(reply().text('ok'));
    expectExit(await run(['-p', 'hi']), 0);
    expect(bodies()[0]!.tools.map((t) => t.name)).not.toContain('Skill');
  });

  it('a skill is a slash command too; a personal skill beats a project one, and a skill beats a command', async () => {
    skill(projectSkills(), 'greet', '---\ndescription: project greet\n---\nProject greeting for $ARGUMENTS\n');
    skill(userSkills(), 'greet', '---\ndescription: user greet\n---\nPersonal greeting for $ARGUMENTS\n');
    skill(projectSkills(), 'review', '---\ndescription: review skill\n---\nSkill review of $ARGUMENTS\n');
    mkdirSync(path.join(t.project.dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'commands', 'review.md'), 'Command review of $ARGUMENTS\n');
    skill(projectSkills(), 'hidden', '---\ndescription: no slash\nuser-invocable: false\n---\nHidden body\n');
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', '/greet Ann']), 0);
    expectExit(await run(['-p', '/review src']), 0);
    expectExit(await run(['-p', '/hidden']), 0);
    const first = bodies().map((b) => JSON.stringify(b.messages[0]));
    expect(first[0]).toContain('Personal greeting for Ann');
    expect(first[1]).toContain('Skill review of src');
    expect(first[2]).toContain('/hidden');
  });

  it('a skill the model runs has its inline shell run through the gates: allowed-tools let it, otherwise it stays with the reason', async () => {
    skill(projectSkills(), 'status', '---\ndescription: Show status\nallowed-tools: Bash(echo:*)\n---\nNow: !`echo branch-main`\n');
    skill(projectSkills(), 'risky', '---\ndescription: Risky\n---\nFiles: !`touch made-by-skill`\n');
    t.api.script(reply().toolUse('Skill', { skill: 'status' }, { id: 'toolu_1' }).toolUse('Skill', { skill: 'risky' }, { id: 'toolu_2' }), reply().text('ok'));
    expectExit(await run(['-p', 'status', '--allowedTools', 'Skill']), 0);
    expect(toolResult(bodies()[1]!, 'toolu_1').content).toContain('Now: branch-main');
    const risky = toolResult(bodies()[1]!, 'toolu_2').content as string;
    expect(risky).toContain('Files: !`touch made-by-skill`');
    expect(risky).toContain('were not run (the command');
    expect(risky).toContain('needs permission');
  });

  it('a skill’s allowed-tools allow the model’s calls until the prompt’s run ends', async () => {
    skill(projectSkills(), 'mk', '---\ndescription: Make files\nallowed-tools: Bash(touch:*)\n---\nTouch what is asked.\n');
    t.api.script(
      reply().toolUse('Skill', { skill: 'mk' }, { id: 'toolu_s' }),
      reply().toolUse('Bash', { command: 'touch one.txt' }, { id: 'toolu_1' }),
      reply().text('made one'),
      reply().toolUse('Bash', { command: 'touch two.txt' }, { id: 'toolu_2' }),
      reply().text('could not'),
    );
    const line = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } });
    const r = await t.run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Skill'], {
      stdin: `${line('make one')}\n${line('make two')}\n`,
    });
    expectExit(r, 0);
    expect(existsSync(path.join(t.project.dir, 'one.txt'))).toBe(true);
    expect(existsSync(path.join(t.project.dir, 'two.txt'))).toBe(false);
    expect(JSON.stringify(toolResult(bodies()[4]!, 'toolu_2'))).toContain('needs permission');
  });
});
