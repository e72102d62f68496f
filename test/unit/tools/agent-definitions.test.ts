/** Sub-agent definitions: Claude Code's agent files, where they are found and which wins. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { subagentTools } from '../../../src/core/subagent.js';
import { loadAgentDefinitions, parseAgentFile } from '../../../src/tools/agent/definitions.js';
import { BUILTIN_TOOLS } from '../../../src/tools/registry.js';

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
    const a = parseAgentFile('---\nname: rev\ndescription: "Reviews"\ntools: Read, Grep, Bash(git diff:*)\nmodel: opus\npermissionMode: plan\nmaxTurns: 5\n---\nBe strict.\n', 'project');
    expect(a).toMatchObject({ name: 'rev', description: 'Reviews', tools: ['Read', 'Grep', 'Bash(git diff:*)'], model: 'opus', permissionMode: 'plan', maxTurns: 5, systemPrompt: 'Be strict.' });
    expect(parseAgentFile('---\nname: a\ndescription: d\ntools: [Read, Glob]\n---\n', 'user')?.tools).toEqual(['Read', 'Glob']);
    expect(parseAgentFile('---\nname: a\ndescription: d\ntools:\n  - Read\n  - "Grep"\ndisallowedTools:\n  - Bash\n---\nx', 'user')).toMatchObject({ tools: ['Read', 'Grep'], disallowedTools: ['Bash'] });
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
    expect(names({}).length).toBe(BUILTIN_TOOLS.length - 1);
    expect(names({ toolNames: ['Read', 'Bash(git diff:*)', 'Agent', 'BashOutput'] })).toEqual(['Bash', 'Read', 'TaskOutput']);
    expect(names({ disallowedTools: ['Bash', 'Write'] })).not.toEqual(expect.arrayContaining(['Bash', 'Write']));
  });
});
