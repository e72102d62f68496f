/** --safe-mode and CLAUDE_CODE_SAFE_MODE through the built binary: the project's customizations stay off. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');

const t = useApiAndProject({
  files: {
    'CLAUDE.md': 'Project memory: MEMORY-MARKER.\n',
    'secret.txt': 'top secret\n',
    '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys the app\n---\nDeploy it.\n',
    '.claude/commands/greet.md': 'Say hello to $ARGUMENTS.\n',
    '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code carefully\n---\nYou review.\n',
    '.claude/output-styles/terse.md': '---\nname: terse\ndescription: Short answers\n---\nSTYLE-MARKER: answer in one line.\n',
  },
});

type Body = { system?: Array<{ text: string }>; tools: Array<{ name: string; description: string }>; messages: Array<{ role: string; content: any }> };
const first = () => t.api.messageRequests()[0]!.body as Body;
const systemText = () => (first().system ?? []).map((b) => b.text).join('\n');
/** The whole first request: the instruction files come in its first user message. */
const requestText = () => JSON.stringify(first());

/** Project settings with a hook, an output style, a deny rule and the project's MCP server approved; a managed policy with its own hook. */
function customize(): { projectMark: string; managedMark: string; managed: string } {
  const projectMark = path.join(t.project.home, 'project-hook-ran');
  const managedMark = path.join(t.project.home, 'managed-hook-ran');
  const hook = (file: string) => ({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${file}` }] }] });
  writeFileSync(
    t.project.path('.claude/settings.json'),
    JSON.stringify({ hooks: hook(projectMark), outputStyle: 'terse', enableAllProjectMcpServers: true, permissions: { deny: ['Read(./secret.txt)'] } }),
  );
  writeFileSync(t.project.path('.mcp.json'), JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [SERVER] } } }));
  const managedDir = path.join(t.project.home, 'managed');
  mkdirSync(managedDir);
  const managed = path.join(managedDir, 'managed-settings.json');
  writeFileSync(managed, JSON.stringify({ hooks: hook(managedMark) }));
  return { projectMark, managedMark, managed };
}

describe('safe mode', () => {
  it('without it, the project customizations are all in force (the baseline)', async () => {
    const c = customize();
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'hi'], { env: { WICKET_MANAGED_SETTINGS: c.managed } });
    expectExit(r, 0);
    expect(JSON.stringify(first().messages[0])).toContain('MEMORY-MARKER');
    expect(systemText()).toContain('STYLE-MARKER');
    const names = first().tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Skill', 'mcp__test__echo']));
    expect(first().tools.find((x) => x.name === 'Agent')!.description).toContain('reviewer');
    expect(existsSync(c.projectMark) && existsSync(c.managedMark)).toBe(true);
  });

  it('--safe-mode leaves out CLAUDE.md, skills, agents, the output style, MCP servers and project hooks; managed hooks and deny rules stay', async () => {
    const c = customize();
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('secret.txt') }, { id: 'toolu_s' }), reply().text('done'));
    const r = await t.run(['-p', 'hi', '--safe-mode', '--allowedTools', 'Read'], { env: { WICKET_MANAGED_SETTINGS: c.managed } });
    expectExit(r, 0);
    expect(requestText()).not.toContain('MEMORY-MARKER');
    expect(systemText()).not.toContain('STYLE-MARKER');
    const names = first().tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['Read', 'Edit', 'Bash', 'Agent']));
    expect(names).not.toContain('Skill');
    expect(names.filter((n) => n.startsWith('mcp__'))).toEqual([]);
    const agent = first().tools.find((x) => x.name === 'Agent')!.description;
    expect(agent).not.toContain('reviewer');
    expect(agent).toContain('general-purpose');
    expect(existsSync(c.projectMark)).toBe(false);
    expect(existsSync(c.managedMark)).toBe(true);
    const second = t.api.messageRequests()[1]!.body as Body;
    expect(JSON.stringify(second.messages.at(-1))).toContain('denied');
  });

  it('CLAUDE_CODE_SAFE_MODE=1 does the same; a custom command is not expanded', async () => {
    customize();
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', '/greet Ada'], { env: { CLAUDE_CODE_SAFE_MODE: '1' } });
    expectExit(r, 0);
    expect(requestText()).not.toContain('MEMORY-MARKER');
    expect(JSON.stringify(first().messages[0])).not.toContain('Say hello to Ada');
  });

  it('--mcp-config given on the command line still applies', async () => {
    customize();
    const cfg = JSON.stringify({ mcpServers: { flagged: { command: process.execPath, args: [SERVER] } } });
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'hi', '--safe-mode', '--mcp-config', cfg], { timeoutMs: 30_000 });
    expectExit(r, 0);
    const names = first().tools.map((x) => x.name);
    expect(names).toContain('mcp__flagged__echo');
    expect(names.filter((n) => n.startsWith('mcp__test__'))).toEqual([]);
  });
});
