/** The Agent tool through the built binary: built-in and file-defined sub-agents, their tools, rules and cost. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn as toolResult, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'src/a.ts': 'export const answer = 42;\n' } });
type Body = { model: string; system: Array<{ text: string }>; tools: Array<{ name: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const run = (args: string[]) => t.run(args);

describe('the Agent tool', () => {
  it('runs a built-in Explore agent with read-only tools; only its report comes back', async () => {
    t.api.script(
      reply().toolUse('Agent', { description: 'find the answer', prompt: 'Where is answer defined?', subagent_type: 'Explore' }, { id: 'toolu_agent' }),
      reply().toolUse('Read', { file_path: path.join(t.project.dir, 'src/a.ts') }, { id: 'toolu_read' }),
      reply().text('answer is defined in src/a.ts as 42.'),
      reply().text('It is 42, in src/a.ts.'),
    );
    const r = await run(['-p', 'where is answer?', '--output-format', 'json']);
    expectExit(r, 0);
    const [parent, sub1, sub2, parentAfter] = bodies();
    expect(parent!.tools.map((t) => t.name)).toContain('Agent');
    expect(sub1!.messages).toHaveLength(1);
    expect(JSON.stringify(sub1!.messages[0])).toContain('"text":"Where is answer defined?"');
    expect(sub1!.system[0]!.text).toContain('You are a read-only search sub-agent');
    expect(sub1!.tools.map((t) => t.name)).toEqual(['Bash', 'Glob', 'Grep', 'Read', 'WebFetch', 'TaskOutput']);
    expect(JSON.stringify(toolResult(sub2!, 'toolu_read'))).toContain('export const answer = 42;');
    const report = toolResult(parentAfter!, 'toolu_agent');
    expect(report.content).toMatch(/^answer is defined in src\/a\.ts as 42\.\n\n\[agent [0-9a-f]{8}: 2 turns, 1 tool call\]$/);
    expect(parentAfter!.messages).toHaveLength(3); // the sub-agent's conversation stays out of the parent's
    expect(r.json<any>().result).toBe('It is 42, in src/a.ts.');
    expect(r.json<any>().num_turns).toBe(2);
  });

  it('runs an agent defined in .claude/agents with its prompt, tools and model; accepts the old name Task', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'agents'), { recursive: true });
    writeFileSync(
      path.join(t.project.dir, '.claude', 'agents', 'reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews code for bugs\ntools: Read, Grep\nmodel: haiku\n---\nYou review code. Report bugs only.\n',
    );
    t.api.script(
      reply().toolUse('Task', { description: 'review', prompt: 'Review src/a.ts', subagent_type: 'reviewer' }, { id: 'toolu_a' }),
      reply().text('No bugs.'),
      reply().text('The reviewer found no bugs.'),
    );
    expectExit(await run(['-p', 'review it']), 0);
    const [parent, sub] = bodies();
    expect(parent!.tools.find((t) => t.name === 'Agent')).toMatchObject({
      description: expect.stringContaining('- reviewer: Reviews code for bugs (Tools: Read, Grep)'),
    });
    expect(sub!.model).toBe('claude-haiku-4-5');
    expect(sub!.system[0]!.text.startsWith('You review code. Report bugs only.')).toBe(true);
    expect(sub!.tools.map((t) => t.name)).toEqual(['Grep', 'Read']);
  });

  it('the sub-agent’s calls pass the gates: print mode denies what would ask, and lists it', async () => {
    t.api.script(
      reply().toolUse('Agent', { description: 'write', prompt: 'Create b.txt' }, { id: 'toolu_a' }),
      reply().toolUse('Write', { file_path: path.join(t.project.dir, 'b.txt'), content: 'x' }, { id: 'toolu_w' }),
      reply().text('I was not allowed to write b.txt.'),
      reply().text('Could not.'),
    );
    const r = await run(['-p', 'make b.txt', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().permission_denials).toEqual([expect.objectContaining({ tool_name: 'Write', tool_use_id: 'toolu_w' })]);
    const sub = bodies()[2]!;
    expect(toolResult(sub, 'toolu_w')).toMatchObject({ is_error: true });
  });

  it('refuses an unknown type with the list of types, and an Agent(type) deny rule stops that type', async () => {
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Agent(Plan)'] } }));
    t.api.script(
      reply()
        .toolUse('Agent', { description: 'x', prompt: 'y', subagent_type: 'wizard' }, { id: 'toolu_1' })
        .toolUse('Agent', { description: 'x', prompt: 'y', subagent_type: 'Plan' }, { id: 'toolu_2' }),
      reply().text('ok'),
    );
    expectExit(await run(['-p', 'go']), 0);
    const last = bodies().at(-1)!;
    expect(toolResult(last, 'toolu_1')).toMatchObject({
      is_error: true,
      content: expect.stringContaining('there is no agent type "wizard". Available: general-purpose, Explore, Plan'),
    });
    expect(toolResult(last, 'toolu_2')).toMatchObject({ is_error: true, content: expect.stringContaining('Agent(Plan)') });
    expect(bodies()).toHaveLength(2);
  });

  it('runs SubagentStop hooks (matched on the agent type) when it finishes; a block sends it back to work', async () => {
    const log = path.join(t.project.dir, 'stop.log');
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    const hook = `cat >> ${JSON.stringify(log)}; echo >> ${JSON.stringify(log)}; if [ ! -e ${JSON.stringify(`${log}.once`)} ]; then touch ${JSON.stringify(`${log}.once`)}; echo "check the tests too" >&2; exit 2; fi`;
    writeFileSync(
      path.join(t.project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { SubagentStop: [{ matcher: 'Explore', hooks: [{ type: 'command', command: hook }] }] } }),
    );
    t.api.script(
      reply().toolUse('Agent', { description: 'x', prompt: 'look', subagent_type: 'Explore' }, { id: 'toolu_a' }),
      reply().text('first look'),
      reply().text('tests checked too'),
      reply().text('done'),
    );
    expectExit(await run(['-p', 'go']), 0);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'Explore', last_assistant_message: 'first look', stop_hook_active: false });
    expect(calls[1]).toMatchObject({ stop_hook_active: true, last_assistant_message: 'tests checked too' });
    expect(JSON.stringify(bodies()[2]!.messages)).toContain('check the tests too');
    expect(toolResult(bodies()[3]!, 'toolu_a').content).toMatch(/^tests checked too/);
  });

  it('--agents defines sub-agents on the command line (above agent files); --agent runs the session as one', async () => {
    const agents = JSON.stringify({
      linter: { description: 'Lints code', prompt: 'You lint. Report problems only.', tools: ['Read', 'Grep'], model: 'haiku' },
    });
    t.api.script(
      reply().toolUse('Agent', { description: 'lint', prompt: 'Lint src', subagent_type: 'linter' }),
      reply().text('clean'),
      reply().text('lint says clean'),
      reply().text('as the linter'),
    );
    expectExit(await run(['-p', 'lint', '--agents', agents]), 0);
    const [parent, sub] = bodies();
    expect(parent!.tools.find((x) => x.name === 'Agent')).toMatchObject({ description: expect.stringContaining('- linter: Lints code (Tools: Read, Grep)') });
    expect(sub!.model).toBe('claude-haiku-4-5');
    expect(sub!.system[0]!.text.startsWith('You lint. Report problems only.')).toBe(true);
    expectExit(await run(['-p', 'go', '--agents', agents, '--agent', 'linter']), 0);
    const main = bodies().at(-1)!;
    expect(main.model).toBe('claude-haiku-4-5');
    expect(main.system[0]!.text.startsWith('You lint. Report problems only.')).toBe(true);
    expect(main.tools.map((x) => x.name)).toEqual(['Grep', 'Read']);
    const unknown = await run(['-p', 'go', '--agent', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--agent: there is no agent named nobody; known: general-purpose, Explore, Plan');
    const bad = await run(['-p', 'go', '--agents', '{"x": {}}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--agents: "x" needs a "description" and a "prompt"');
  });

  it('counts the sub-agent’s tokens in the session’s usage', async () => {
    t.api.script(
      reply().toolUse('Agent', { description: 'x', prompt: 'y' }).usage({ input_tokens: 100, output_tokens: 10 }),
      reply().text('sub').usage({ input_tokens: 1000, output_tokens: 20 }),
      reply().text('done').usage({ input_tokens: 200, output_tokens: 5 }),
    );
    const r = await run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<any>().usage.input_tokens).toBe(1300);
  });
});
