/** Sub-agent definitions: Claude Code's agent files, where they are found and which wins. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { subagentTools } from '../../../src/core/subagent.js';
import { agentWarnings, loadAgentDefinitions, parseAgentFile, parseCliAgents } from '../../../src/tools/agent/definitions.js';
import { BUILTIN_TOOLS, PERSON_TOOLS } from '../../../src/tools/registry.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-agents-')));
  dirs.push(d);
  return d;
}
function agentFile(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.md`), text);
}

describe('agent files', () => {
  it('reads name, description, tools (comma list, [list] or YAML list), model, permissionMode, maxTurns and the body', () => {
    const a = parseAgentFile(
      '---\nname: rev\ndescription: "Reviews"\ntools: Read, Grep, Bash(git diff:*)\nmodel: opus\npermissionMode: plan\nmaxTurns: 5\n---\nBe strict.\n',
      'project',
    );
    expect(a).toMatchObject({
      name: 'rev',
      description: 'Reviews',
      tools: ['Read', 'Grep', 'Bash(git diff:*)'],
      model: 'opus',
      permissionMode: 'plan',
      maxTurns: 5,
      systemPrompt: 'Be strict.',
    });
    expect(parseAgentFile('---\nname: a\ndescription: d\ntools: [Read, Glob]\n---\n', 'user')?.tools).toEqual(['Read', 'Glob']);
    expect(parseAgentFile('---\nname: a\ndescription: d\ntools:\n  - Read\n  - "Grep"\ndisallowedTools:\n  - Bash\n---\nx', 'user')).toMatchObject({
      tools: ['Read', 'Grep'],
      disallowedTools: ['Bash'],
    });
    expect(parseAgentFile('---\nname: a\ndescription: d\nmodel: inherit\n---\n', 'user')?.model).toBeUndefined();
    expect(parseAgentFile('---\nname: a\ndescription: d\n---\n', 'user')?.tools).toBeUndefined();
  });

  it('skips files without a name or description, or without frontmatter', () => {
    expect(parseAgentFile('---\nname: a\n---\nbody', 'user')).toBeUndefined();
    expect(parseAgentFile('just text', 'user')).toBeUndefined();
  });

  it('finds project agents in the cwd and its parents (nearest wins) over user agents, which may replace built-ins', () => {
    const root = tmp();
    const config = path.join(root, 'home', '.claude');
    const project = path.join(root, 'repo');
    const sub = path.join(project, 'pkg');
    mkdirSync(sub, { recursive: true });
    agentFile(path.join(config, 'agents'), 'mine', '---\nname: mine\ndescription: from user\n---\n');
    agentFile(path.join(config, 'agents'), 'explore', '---\nname: Explore\ndescription: my own Explore\n---\n');
    agentFile(path.join(project, '.claude', 'agents'), 'mine', '---\nname: mine\ndescription: from repo\n---\n');
    agentFile(path.join(sub, '.claude', 'agents'), 'mine', '---\nname: mine\ndescription: from pkg\n---\n');
    const defs = loadAgentDefinitions(sub, config);
    expect(defs.map((d) => d.name)).toEqual(['general-purpose', 'Explore', 'Plan', 'mine']);
    expect(defs.find((d) => d.name === 'mine')).toMatchObject({ description: 'from pkg', source: 'project' });
    expect(defs.find((d) => d.name === 'Explore')).toMatchObject({ description: 'my own Explore', source: 'user' });
    expect(loadAgentDefinitions(project, undefined).find((d) => d.name === 'Explore')?.source).toBe('builtin');
  });

  it('a sub-agent gets the named tools (never Agent itself), less the disallowed ones', () => {
    const names = (spec: Parameters<typeof subagentTools>[1]) => subagentTools(BUILTIN_TOOLS, spec).map((t) => t.name);
    expect(names({})).not.toContain('Agent');
    // Never Agent, and never the tools that turn to the person (AskUserQuestion, plan mode).
    expect(names({}).length).toBe(BUILTIN_TOOLS.length - 1 - PERSON_TOOLS.length);
    for (const t of PERSON_TOOLS) expect(names({})).not.toContain(t);
    expect(names({ toolNames: ['Read', 'Bash(git diff:*)', 'Agent', 'BashOutput'] })).toEqual(['Bash', 'Read', 'TaskOutput']);
    expect(names({ disallowedTools: ['Bash', 'Write'] })).not.toEqual(expect.arrayContaining(['Bash', 'Write']));
  });

  it('keeps the tools of the MCP servers it names and adds its own (replacing same-named ones); mcp__server patterns work', () => {
    const mcp = (name: string, defer = false) => ({ ...BUILTIN_TOOLS[0]!, name, aliases: undefined, shouldDefer: defer });
    const session = [...BUILTIN_TOOLS, mcp('mcp__github__issue'), mcp('mcp__github__pr'), mcp('mcp__slack__post')];
    const names = (spec: Parameters<typeof subagentTools>[1], all = session) => subagentTools(all, spec).map((t) => t.name);
    expect(names({ toolNames: ['Read'], mcpServers: ['github'] })).toEqual(['Read', 'mcp__github__issue', 'mcp__github__pr']);
    expect(names({ toolNames: ['Read', 'mcp__slack'] })).toEqual(['Read', 'mcp__slack__post']);
    expect(names({ toolNames: ['Read'], mcpServers: ['github'], disallowedTools: ['mcp__github__pr'] })).toEqual(['Read', 'mcp__github__issue']);
    expect(names({ disallowedTools: ['mcp__*'] }).some((n) => n.startsWith('mcp__'))).toBe(false);
    const own = mcp('mcp__own__echo');
    expect(names({ toolNames: ['Read'], extraTools: [own, mcp('mcp__slack__post')] })).toEqual(['Read', 'mcp__own__echo', 'mcp__slack__post']);
    // Deferred MCP tools bring ToolSearch along when the session has it.
    const search = { ...BUILTIN_TOOLS[0]!, name: 'ToolSearch', aliases: undefined };
    expect(names({ toolNames: ['Read'], extraTools: [mcp('mcp__own__echo', true)] }, [...session, search])).toEqual(['Read', 'mcp__own__echo', 'ToolSearch']);
  });
});

const FILE = '/p/.claude/agents/a.md';
const parse = (front: string, body = 'Be good.') => parseAgentFile(`---\nname: a\ndescription: d\n${front}\n---\n${body}\n`, 'project', FILE)!;

describe('the other frontmatter fields', () => {
  it('skills: a list or a comma list of names', () => {
    expect(parse('skills:\n  - api-conventions\n  - errors').skills).toEqual(['api-conventions', 'errors']);
    expect(parse('skills: a, b').skills).toEqual(['a', 'b']);
    expect(parse('skills: {x: 1}')).toMatchObject({ warnings: [`${FILE}: "skills" must be a list of names, found a map; the agent loads without it`] });
    expect(parse('skills: {x: 1}').skills).toBeUndefined();
  });

  it('mcpServers: names of the session’s servers and inline definitions', () => {
    const a = parse('mcpServers:\n  - github\n  - local:\n      command: node\n      args: [server.js]');
    expect(a.mcpServers).toEqual([{ name: 'github' }, { name: 'local', config: { command: 'node', args: ['server.js'] } }]);
    expect(a.warnings).toBeUndefined();
    const bad = parse('mcpServers:\n  - 42\n');
    expect(bad.mcpServers).toBeUndefined();
    expect(bad.warnings).toEqual([`${FILE}: "mcpServers" entries must be a server name or {name: definition}, found 42; the agent loads without it`]);
    expect(parse('mcpServers: github').warnings?.[0]).toContain('"mcpServers" must be a list of server names');
  });

  it('hooks: the settings format; each group knows its agent; problems are warnings naming the file', () => {
    const a = parse(
      'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n  Stop:\n    - hooks:\n        - {type: command, command: echo done}',
    );
    expect(a.hooks).toEqual([
      { event: 'PreToolUse', matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }], source: 'projectSettings', sourcePath: FILE, agent: 'a' },
      { event: 'Stop', hooks: [{ type: 'command', command: 'echo done' }], source: 'projectSettings', sourcePath: FILE, agent: 'a' },
    ]);
    const bad = parse('hooks:\n  PreToolUse:\n    - matcher: Bash\n      command: ./x.sh');
    expect(bad.hooks).toBeUndefined();
    expect(bad.warnings?.[0]).toContain(`${FILE}: hooks.PreToolUse[0]: matcher group has no "hooks" array`);
    expect(parse('hooks: [a]').warnings).toEqual([
      `${FILE}: "hooks" must be a map of hook events (the settings "hooks" format), found a list; the agent loads without it`,
    ]);
  });

  it('memory: user, project or local', () => {
    expect(parse('memory: project').memory).toBe('project');
    const bad = parse('memory: team');
    expect(bad.memory).toBeUndefined();
    expect(bad.warnings).toEqual([`${FILE}: "memory" must be user, project or local, found "team"; the agent loads without it`]);
  });

  it('background: true or false', () => {
    expect(parse('background: true').background).toBe(true);
    expect(parse('background: false').background).toBe(false);
    expect(parse('background: sometimes')).toMatchObject({
      warnings: [`${FILE}: "background" must be true or false, found "sometimes"; the agent loads without it`],
    });
  });

  it('color: one of Claude Code’s eight', () => {
    expect(parse('color: Purple').color).toBe('purple');
    const bad = parse('color: magenta');
    expect(bad.color).toBeUndefined();
    expect(bad.warnings?.[0]).toBe(
      `${FILE}: "color" must be red, blue, green, yellow, purple, orange, pink, cyan, found "magenta"; the agent loads without it`,
    );
  });

  it('initialPrompt: text (a block scalar too)', () => {
    expect(parse('initialPrompt: Review the diff').initialPrompt).toBe('Review the diff');
    expect(parse('initialPrompt: |\n  Review\n  the diff').initialPrompt).toBe('Review\nthe diff');
    expect(parse('initialPrompt: [a]').warnings?.[0]).toBe(`${FILE}: "initialPrompt" must be text, found a list; the agent loads without it`);
  });

  it('the older fields warn on values they cannot use, and a frontmatter line that cannot be read is named', () => {
    const a = parse('maxTurns: lots\npermissionMode: yolo\neffort: extreme\ntools: Read\nnot yaml at all');
    expect(a).toMatchObject({ tools: ['Read'], systemPrompt: 'Be good.' });
    expect(a.maxTurns ?? a.permissionMode ?? a.effort).toBeUndefined();
    expect(a.warnings).toEqual([
      `${FILE}: frontmatter line 7: expected "key: value", found "not yaml at all"; line ignored`,
      `${FILE}: "permissionMode" must be a permission mode (default, acceptEdits, plan, dontAsk, bypassPermissions), found "yolo"; the agent loads without it`,
      `${FILE}: "maxTurns" must be a whole number above 0, found "lots"; the agent loads without it`,
      `${FILE}: "effort" must be an effort level (low, medium, high, xhigh, max or auto), found "extreme"; the agent loads without it`,
    ]);
  });

  it('--agents JSON takes the same fields, camelCase; a bad one warns naming the entry', () => {
    const [a] = parseCliAgents(
      JSON.stringify({
        rev: {
          description: 'd',
          prompt: 'p',
          skills: ['s'],
          mcpServers: ['github', { local: { command: 'node' } }],
          hooks: { PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'lint' }] }] },
          memory: 'user',
          background: true,
          color: 'cyan',
          initialPrompt: 'start',
          maxTurns: 'x',
        },
      }),
    );
    expect(a).toMatchObject({
      skills: ['s'],
      mcpServers: [{ name: 'github' }, { name: 'local', config: { command: 'node' } }],
      hooks: [{ event: 'PostToolUse', matcher: 'Edit', source: 'cli', agent: 'rev' }],
      memory: 'user',
      background: true,
      color: 'cyan',
      initialPrompt: 'start',
      systemPrompt: 'p',
    });
    expect(agentWarnings([a!])).toEqual(['--agents "rev": "maxTurns" must be a whole number above 0, found "x"; the agent loads without it']);
  });
});
