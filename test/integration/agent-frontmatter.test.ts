/**
 * Agent files as Claude Code writes them, through the built binary: skills, mcpServers, hooks,
 * memory, background and initialPrompt, each through the same gates as every other call.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn as toolResult, useApiAndProject } from '../support/api-project.js';
import { reply, type RecordedRequest, type ReplyBuilder } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');

const t = useApiAndProject({ files: { 'src/a.ts': 'export const answer = 42;\n' } });
type Body = { system: Array<{ text: string }>; tools: Array<{ name: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const run = (args: string[]) => t.run(args, { timeoutMs: 30_000 });
const names = (b: Body) => b.tools.map((x) => x.name);

function agentFile(name: string, front: string, body = 'You are a careful helper. Report briefly.'): string {
  const dir = path.join(t.project.dir, '.claude', 'agents');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, `---\nname: ${name}\ndescription: A helper for tests\n${front}\n---\n${body}\n`);
  return file;
}
function settings(s: unknown): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify(s));
}
const agentCall = (type: string, o: { id?: string; prompt?: string } = {}) =>
  reply().toolUse('Agent', { description: 'do it', prompt: o.prompt ?? 'SUBTASK: do the task', subagent_type: type }, { id: o.id ?? 'toolu_agent' });
const firstText = (b: Body) => JSON.stringify(b.messages[0]);

describe('agent frontmatter: mcpServers', () => {
  it('an inline server is connected for the sub-agent’s run only; its tools pass the gates; a named server of the session is kept', async () => {
    writeFileSync(path.join(t.project.dir, '.mcp.json'), JSON.stringify({ mcpServers: { shared: { command: process.execPath, args: [SERVER] } } }));
    settings({ permissions: { allow: ['mcp__own__echo'] } });
    agentFile(
      'browser',
      `tools: Read\nmcpServers:\n  - own:\n      type: stdio\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}]\n  - shared`,
    );
    t.api.script(
      agentCall('browser'),
      reply().toolUse('mcp__own__echo', { text: 'from the agent' }, { id: 'toolu_echo' }).toolUse('mcp__own__add', { a: 1, b: 2 }, { id: 'toolu_add' }),
      reply().text('echoed'),
      reply().text('The agent echoed.'),
    );
    const r = await run(['-p', 'use the browser agent', '--output-format', 'json']);
    expectExit(r, 0);
    const [main, sub1, sub2, mainAfter] = bodies();
    expect(names(main!).some((n) => n.startsWith('mcp__own__'))).toBe(false);
    expect(names(main!)).toContain('mcp__shared__echo');
    expect(names(sub1!)).toEqual(expect.arrayContaining(['Read', 'mcp__shared__echo', 'mcp__own__echo', 'mcp__own__add']));
    expect(names(sub1!)).not.toContain('Bash');
    expect(toolResult(sub2!, 'toolu_echo')).toMatchObject({ content: 'echo: from the agent' });
    // No rule allows mcp__own__add: print mode denies it, as for any other call.
    expect(toolResult(sub2!, 'toolu_add')).toMatchObject({ is_error: true });
    expect(r.json<any>().permission_denials).toEqual([expect.objectContaining({ tool_name: 'mcp__own__add', tool_use_id: 'toolu_add' })]);
    expect(toolResult(mainAfter!, 'toolu_agent').content).toMatch(/^echoed/);
  });

  it('a server that cannot start, or a name the session lacks, is a warning; the agent still runs', async () => {
    agentFile('broken', 'mcpServers:\n  - bad:\n      type: ws\n      url: http://x\n  - nowhere');
    t.api.script(agentCall('broken'), reply().text('ran anyway'), reply().text('ok'));
    const r = await run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stderr).toContain('agent broken: its MCP server "bad" cannot start: "url" must be a ws:// or wss:// URL');
    expect(r.stderr).toContain('agent broken: the MCP server "nowhere" it names is not connected in this session');
    expect(toolResult(bodies()[2]!, 'toolu_agent').content).toMatch(/^ran anyway/);
  });
});

describe('agent frontmatter: hooks', () => {
  it('its hooks fire for its own calls only; its Stop hook runs as SubagentStop', async () => {
    const log = path.join(t.project.dir, 'hooks.log');
    const hook = `cat >> ${JSON.stringify(log)}; echo >> ${JSON.stringify(log)}`;
    agentFile(
      'checker',
      `hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${JSON.stringify(hook)}\n  Stop:\n    - hooks:\n        - {type: command, command: ${JSON.stringify(hook)}}`,
    );
    t.api.script(
      reply().toolUse('Bash', { command: 'echo main' }, { id: 'toolu_main_bash' }),
      agentCall('checker'),
      reply().toolUse('Bash', { command: 'echo sub' }, { id: 'toolu_sub_bash' }),
      reply().text('sub done'),
      reply().text('all done'),
    );
    expectExit(await run(['-p', 'go', '--allowedTools', 'Bash']), 0);
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(calls.map((c) => c.hook_event_name)).toEqual(['PreToolUse', 'SubagentStop']);
    expect(calls[0]).toMatchObject({ tool_name: 'Bash', tool_use_id: 'toolu_sub_bash', tool_input: { command: 'echo sub' } });
    expect(calls[1]).toMatchObject({ agent_type: 'checker', last_assistant_message: 'sub done' });
  });

  it('a PreToolUse hook of the agent can block its call; the reason reaches the sub-agent', async () => {
    agentFile(
      'guarded',
      'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "echo no shell for this agent >&2; exit 2"',
    );
    t.api.script(agentCall('guarded'), reply().toolUse('Bash', { command: 'echo hi' }, { id: 'toolu_b' }), reply().text('blocked'), reply().text('ok'));
    expectExit(await run(['-p', 'go', '--allowedTools', 'Bash']), 0);
    expect(toolResult(bodies()[2]!, 'toolu_b')).toMatchObject({ is_error: true, content: expect.stringContaining('no shell for this agent') });
  });
});

describe('agent frontmatter: skills', () => {
  it('the named skills’ text is in the sub-agent’s first message, before its task; an unknown one is a warning', async () => {
    const dir = path.join(t.project.dir, '.claude', 'skills', 'conventions');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\ndescription: Team conventions\n---\nAlways name files in kebab-case.\n');
    agentFile('styled', 'skills:\n  - conventions\n  - nonexistent');
    t.api.script(agentCall('styled'), reply().text('styled'), reply().text('ok'));
    const r = await run(['-p', 'go']);
    expectExit(r, 0);
    const sub = bodies()[1]!;
    expect(sub.messages).toHaveLength(1);
    const blocks = sub.messages[0]!.content as Array<{ type: string; text: string }>;
    expect(blocks[0]!.text).toContain('<skill name="conventions">');
    expect(blocks[0]!.text).toContain('Always name files in kebab-case.');
    expect(blocks.at(-1)!.text).toBe('SUBTASK: do the task');
    expect(JSON.stringify(bodies()[0]!.messages)).not.toContain('kebab-case');
    expect(r.stderr).toContain('agent styled: there is no skill "nonexistent" to preload');
  });
});

describe('agent frontmatter: memory', () => {
  it('makes the memory folder on first use, names it in the sub-agent’s prompt with MEMORY.md, and lets it write there', async () => {
    agentFile('rememberer', 'memory: project\ntools: Grep');
    const dir = path.join(t.project.dir, '.claude', 'agent-memory', 'rememberer');
    const index = path.join(dir, 'MEMORY.md');
    t.api.script(
      agentCall('rememberer'),
      reply().toolUse('Write', { file_path: index, content: '- answer lives in src/a.ts\n' }, { id: 'toolu_w' }),
      reply().text('saved'),
      reply().text('ok'),
    );
    expect(existsSync(dir)).toBe(false);
    const r = await run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    const sub = bodies()[1]!;
    expect(sub.system[0]!.text).toContain(`You have a persistent memory folder: ${dir}`);
    expect(sub.system[0]!.text).toContain('(empty: MEMORY.md does not exist yet)');
    expect(names(sub)).toEqual(expect.arrayContaining(['Grep', 'Read', 'Write', 'Edit']));
    expect(r.json<any>().permission_denials).toEqual([]);
    expect(readFileSync(index, 'utf8')).toBe('- answer lives in src/a.ts\n');
    // The next run starts with what it saved.
    t.api.script(agentCall('rememberer'), reply().text('remembered'), reply().text('ok'));
    expectExit(await run(['-p', 'again']), 0);
    expect(bodies()[5]!.system[0]!.text).toContain('## MEMORY.md\n- answer lives in src/a.ts');
  });
});

describe('agent frontmatter: background', () => {
  const isSub = (req: RecordedRequest) => JSON.stringify((req.body as Body).messages[0]).includes('SUBTASK');
  const routed = (sub: () => ReplyBuilder, main: (n: number) => ReplyBuilder) =>
    reply((req) => (isSub(req) ? sub() : main((req.body as Body).messages.length)));

  it('background: true returns at once; the report comes later in a task notification', async () => {
    agentFile('slowpoke', 'background: true');
    const main = (n: number) => (n === 1 ? agentCall('slowpoke') : n === 3 ? reply().text('Waiting for it.') : reply().text('It reported 42.'));
    t.api.script(...Array.from({ length: 4 }, () => routed(() => reply().delay(1200).text('report: 42'), main)));
    const r = await run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    const mains = bodies().filter((b) => !firstText(b).includes('SUBTASK'));
    expect(String(toolResult(mains[1]!, 'toolu_agent').content)).toMatch(/^Async agent launched successfully\.\ntask_id: a[0-9a-f]{8}/);
    const last = JSON.stringify(mains[2]!.messages.at(-1));
    expect(last).toContain('<task-notification>');
    expect(last).toContain('<result>report: 42</result>');
    expect(r.json<any>().result).toBe('It reported 42.');
  });
});

describe('--agent with initialPrompt', () => {
  it('is the first user turn when no prompt is given, and comes before a prompt that is', async () => {
    agentFile('starter', 'initialPrompt: Review the recent changes.', 'You review.');
    t.api.script(reply().text('reviewed'));
    const r = await run(['-p', '--agent', 'starter']);
    expectExit(r, 0);
    expect(r.stdout).toBe('reviewed\n');
    const first = bodies()[0]!;
    expect(first.system[0]!.text.startsWith('You review.')).toBe(true);
    expect(JSON.stringify(first.messages)).toContain('"text":"Review the recent changes."');
    t.api.script(reply().text('ok'));
    expectExit(await run(['-p', 'Focus on src.', '--agent', 'starter']), 0);
    expect(JSON.stringify(bodies()[1]!.messages[0])).toContain('Review the recent changes.\\n\\nFocus on src.');
  });

  it('runs a slash command in initialPrompt, and the agent’s hooks, memory and skills apply to the session', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'commands', 'hello.md'), 'Say hello to $ARGUMENTS.\n');
    const sdir = path.join(t.project.dir, '.claude', 'skills', 'tone');
    mkdirSync(sdir, { recursive: true });
    writeFileSync(path.join(sdir, 'SKILL.md'), '---\ndescription: Tone\n---\nBe cheerful.\n');
    const log = path.join(t.project.dir, 'stop.log');
    agentFile(
      'greeter',
      `initialPrompt: /hello world\nmemory: local\nskills: [tone]\nhooks:\n  Stop:\n    - hooks:\n        - {type: command, command: ${JSON.stringify(`cat > ${JSON.stringify(log)}`)}}`,
      'You greet.',
    );
    // A SessionStart hook's context does not make the conversation look resumed: the skills still load.
    writeFileSync(
      path.join(t.project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo "Today is a holiday."' }] }] } }),
    );
    t.api.script(reply().text('Hello, world!'));
    const r = await run(['-p', '--agent', 'greeter']);
    expectExit(r, 0);
    const first = bodies()[0]!;
    const text = JSON.stringify(first.messages);
    expect(text).toContain('Be cheerful.');
    expect(text).toContain('Today is a holiday.');
    expect(text).toContain('Say hello to world.');
    expect(first.system[0]!.text).toContain(`persistent memory folder: ${path.join(t.project.dir, '.claude', 'agent-memory-local', 'greeter')}`);
    expect(existsSync(path.join(t.project.dir, '.claude', 'agent-memory-local', 'greeter'))).toBe(true);
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({ hook_event_name: 'Stop', last_assistant_message: 'Hello, world!' });
  });
});

describe('--agent with mcpServers', () => {
  it('its own servers start with the session’s, and their tools are the session’s', async () => {
    agentFile('operator', `tools: Read\nmcpServers:\n  - own: {command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}]}`);
    t.api.script(reply().toolUse('mcp__own__echo', { text: 'main' }, { id: 'toolu_e' }), reply().text('ok'));
    expectExit(await run(['-p', 'echo', '--agent', 'operator', '--allowedTools', 'mcp__own']), 0);
    expect(names(bodies()[0]!)).toEqual(expect.arrayContaining(['Read', 'mcp__own__echo']));
    expect(toolResult(bodies()[1]!, 'toolu_e')).toMatchObject({ content: 'echo: main' });
  });
});

describe('malformed frontmatter', () => {
  it('warns naming the file and the field; the agent loads and runs without it', async () => {
    const file = agentFile('sloppy', 'memory: everywhere\ncolor: chartreuse\nbackground: maybe');
    t.api.script(agentCall('sloppy'), reply().text('fine'), reply().text('ok'));
    const r = await run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stderr).toContain(`${file}: "memory" must be user, project or local, found "everywhere"; the agent loads without it`);
    expect(r.stderr).toContain(`${file}: "color" must be`);
    expect(r.stderr).toContain(`${file}: "background" must be true or false`);
    expect(toolResult(bodies()[2]!, 'toolu_agent').content).toMatch(/^fine/);
  });
});
