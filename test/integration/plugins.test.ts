/** Claude Code plugins through the built binary: --plugin-dir and enabledPlugins, each kind of component, and what init reports. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn as toolResult, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const t = useApiAndProject({ files: { 'src/a.ts': 'export const a = 1;\n' } });
type Body = { system: Array<{ text: string }>; tools: Array<{ name: string; description?: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const run = (args: string[], env?: Record<string, string | undefined>) => t.run(args, { env, timeoutMs: 30_000 });

/** Writes a plugin's files under `root` (relative to the project) and returns its absolute folder. */
function plugin(root: string, files: Record<string, string | object>): string {
  const dir = t.project.path(root);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}
const myplug = (files: Record<string, string | object> = {}) =>
  plugin('plugins/myplug', {
    '.claude-plugin/plugin.json': { name: 'myplug', version: '0.1.0' },
    'commands/hello.md': '---\ndescription: Greets\n---\nSay hello to $ARGUMENTS using ${CLAUDE_PLUGIN_ROOT}/greeting.txt',
    ...files,
  });
const userText = (b: Body) => JSON.stringify(b.messages[0]!.content);

describe('plugins in print mode', () => {
  it('runs a plugin command given as the prompt, with its arguments and ${CLAUDE_PLUGIN_ROOT} filled in', async () => {
    const dir = myplug();
    t.api.script(reply().text('Hello!'));
    const r = await run(['--plugin-dir', 'plugins/myplug', '-p', '/myplug:hello world']);
    expectExit(r, 0);
    expect(userText(bodies()[0]!)).toContain(`Say hello to world using ${dir}/greeting.txt`);
    expect(r.stdout).toBe('Hello!\n');
  });

  it('stream-json init lists the plugins (and no plugin_errors when all loaded)', async () => {
    const dir = myplug();
    const other = plugin('plugins/other', { 'commands/x.md': 'x' });
    t.api.script(reply().text('ok'));
    const r = await run(['--plugin-dir', dir, '--plugin-dir', 'plugins/other', '-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const init = r.lines<any>()[0];
    expect(init).toMatchObject({
      type: 'system',
      subtype: 'init',
      plugins: [
        { name: 'myplug', path: dir, version: '0.1.0' },
        { name: 'other', path: other },
      ],
    });
    expect(init).not.toHaveProperty('plugin_errors');
  });

  it('a plugin hook fires on a tool call, with CLAUDE_PLUGIN_ROOT set, and its decision holds', async () => {
    const dir = myplug({
      'hooks/hooks.json': { hooks: { PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: 'bash ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh' }] }] } },
      'hooks/guard.sh':
        'cat > /dev/null\necho "{\\"hookSpecificOutput\\":{\\"hookEventName\\":\\"PreToolUse\\",\\"permissionDecision\\":\\"deny\\",\\"permissionDecisionReason\\":\\"the plugin at $CLAUDE_PLUGIN_ROOT says no\\"}}"\n',
    });
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('src/a.ts') }, { id: 'toolu_r' }), reply().text('blocked'));
    expectExit(await run(['--plugin-dir', dir, '-p', 'read a.ts', '--allowedTools', 'Read']), 0);
    const result = toolResult(bodies()[1]!, 'toolu_r');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain(`the plugin at ${dir} says no`);
  });

  it('a plugin MCP server’s tools are mcp__plugin_<plugin>_<server>__<tool>, called through the usual rules', async () => {
    const dir = myplug({ '.mcp.json': { mcpServers: { srv: { command: process.execPath, args: [SERVER] } } } });
    t.api.script(
      reply()
        .toolUse('mcp__plugin_myplug_srv__echo', { text: 'hi' }, { id: 'toolu_m' })
        .toolUse('mcp__plugin_myplug_srv__add', { a: 1, b: 2 }, { id: 'toolu_a' }),
      reply().text('done'),
    );
    const r = await run(['--plugin-dir', dir, '-p', 'echo', '--allowedTools', 'mcp__plugin_myplug_srv__echo', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    expect(r.lines<any>()[0].mcp_servers).toEqual([{ name: 'plugin:myplug:srv', status: 'connected' }]);
    expect(bodies()[0]!.tools.map((x) => x.name)).toEqual(expect.arrayContaining(['mcp__plugin_myplug_srv__echo', 'mcp__plugin_myplug_srv__add']));
    expect(toolResult(bodies()[1]!, 'toolu_m')).toMatchObject({ content: 'echo: hi' });
    // No rule allows `add`: print mode denies it, as for any other MCP tool.
    expect(toolResult(bodies()[1]!, 'toolu_a')).toMatchObject({
      is_error: true,
      content: expect.stringContaining('--allowedTools "mcp__plugin_myplug_srv__add"'),
    });
  });

  it('a plugin agent is a sub-agent type the Agent tool runs, with its prompt and tools', async () => {
    const dir = myplug({
      'agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nYou review code using ${CLAUDE_PLUGIN_ROOT}/rules.md.\n',
    });
    t.api.script(
      reply().toolUse('Agent', { description: 'review', prompt: 'Review src/a.ts', subagent_type: 'myplug:reviewer' }, { id: 'toolu_ag' }),
      reply().text('Looks fine.'),
      reply().text('Reviewed.'),
    );
    expectExit(await run(['--plugin-dir', dir, '-p', 'review']), 0);
    const [parent, sub, after] = bodies();
    expect(parent!.tools.find((x) => x.name === 'Agent')!.description).toContain('- myplug:reviewer: Reviews code');
    expect(sub!.system[0]!.text.startsWith(`You review code using ${dir}/rules.md.`)).toBe(true);
    expect(sub!.tools.map((x) => x.name)).toEqual(['Grep', 'Read']);
    expect(String(toolResult(after!, 'toolu_ag').content)).toMatch(/^Looks fine\./);
  });

  it('a plugin skill is offered to the model by the Skill tool under its plugin name', async () => {
    const dir = myplug({ 'skills/pdf/SKILL.md': '---\ndescription: Fill PDF forms\n---\nRun ${CLAUDE_PLUGIN_ROOT}/fill.py\n' });
    t.api.script(reply().toolUse('Skill', { skill: 'myplug:pdf' }, { id: 'toolu_s' }), reply().text('ok'));
    expectExit(await run(['--plugin-dir', dir, '-p', 'fill', '--allowedTools', 'Skill(myplug:pdf)']), 0);
    expect(bodies()[0]!.tools.find((x) => x.name === 'Skill')!.description).toContain('- myplug:pdf: Fill PDF forms');
    expect(toolResult(bodies()[1]!, 'toolu_s').content).toContain(`Run ${dir}/fill.py`);
  });

  it('an enabled plugin that is not installed is a warning on stderr and a plugin_errors entry; the run goes on', async () => {
    await t.project.writeHome('.claude/settings.json', JSON.stringify({ enabledPlugins: { 'ghost@nowhere': true, 'off@nowhere': false } }));
    t.api.script(reply().text('ok'));
    const r = await run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    expect(r.stderr).toContain('wicket: warning: plugin "ghost@nowhere" is enabled but not installed');
    expect(r.stderr).toContain('Install it: wicket plugin install ghost@nowhere');
    expect(r.stderr).not.toContain('off@nowhere');
    const init = r.lines<any>()[0];
    expect(init.plugins).toEqual([]);
    expect(init.plugin_errors).toEqual([
      { plugin: 'ghost@nowhere', type: 'plugin-not-found', message: expect.stringContaining('is enabled but not installed') },
    ]);
  });

  it('an enabled plugin installed by Claude Code loads from installed_plugins.json (CLAUDE_CONFIG_DIR respected)', async () => {
    const dir = plugin('elsewhere/cache/deploy/1.0.0', { 'commands/go.md': 'Deploy $ARGUMENTS now' });
    await t.project.write('.claude/settings.json', JSON.stringify({ enabledPlugins: { 'deploy@team': true } }));
    const config = path.join(t.project.home, 'alt-config');
    mkdirSync(path.join(config, 'plugins'), { recursive: true });
    writeFileSync(
      path.join(config, 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'deploy@team': [{ scope: 'project', installPath: dir, version: '1.0.0' }] } }),
    );
    t.api.script(reply().text('deployed'));
    const r = await run(['-p', '/deploy:go staging', '--output-format', 'stream-json', '--verbose'], { CLAUDE_CONFIG_DIR: config });
    expectExit(r, 0);
    expect(r.lines<any>()[0].plugins).toEqual([{ name: 'deploy', path: dir }]);
    expect(userText(bodies()[0]!)).toContain('Deploy staging now');
  });

  it('wicket plugin list shows what a session here would load, and what would not', async () => {
    const dir = myplug({ 'agents/rev.md': '---\nname: rev\ndescription: d\n---\nx' });
    await t.project.write('.claude/settings.json', JSON.stringify({ enabledPlugins: { 'ghost@nowhere': true } }));
    const r = await run(['plugin', 'list', '--plugin-dir', 'plugins/myplug']);
    expectExit(r, 0);
    expect(r.stdout).toContain(
      `Plugins\n  ✓ myplug 0.1.0  (--plugin-dir: ${dir})\n      1 command, 1 agent\nProblems\n  ✗ ghost@nowhere: plugin "ghost@nowhere" is enabled but not installed`,
    );
    expect(t.api.messageRequests()).toEqual([]);
    expectExit(await run(['plugin', 'frobnicate']), 2);
  });

  it('--bare loads no plugin', async () => {
    myplug();
    t.api.script(reply().text('ok'));
    expectExit(await run(['--bare', '--plugin-dir', 'plugins/myplug', '-p', '/myplug:hello world']), 0);
    expect(userText(bodies()[0]!)).toContain('/myplug:hello world');
  });
});
