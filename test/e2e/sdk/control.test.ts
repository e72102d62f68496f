// Every control method of the SDK's Query against wicket, in one streaming session: each is
// answered (with what it asks for, or an error saying why), none is left hanging.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../../support/api-project.js';
import { reply } from '../../support/fake-anthropic-server.js';
import { README_TEXT } from '../../support/mcp-server.mjs';
import { REPO_ROOT } from '../../support/run-cli.js';
import { collect, PromptFeed, sdkQuery, waitUntil } from '../../support/sdk-harness.js';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const t = useApiAndProject({ files: { 'readme.txt': 'hello\n', '.claude/commands/hello.md': '---\ndescription: Says hello\n---\nSay hello.\n' } });

describe('every Query control method', () => {
  it('is answered: session info, mode, model, thinking, MCP servers, context, usage, files, rewind, reloads, and refusals', async () => {
    const notes = t.project.path('notes.txt');
    t.api.script(reply().toolUse('Write', { file_path: notes, content: 'N\n' }), reply().text('written'), reply().text('two'));
    const feed = new PromptFeed();
    // The servers travel in initialize (mcp_servers_applied), not on the command line.
    const { q, stderr } = sdkQuery(t, feed, {
      permissionMode: 'acceptEdits',
      mcpServersDelivery: 'initialize',
      mcpServers: { test: { command: 'node', args: [SERVER] } },
    });
    const firstId = '11111111-1111-4111-8111-111111111111';
    feed.push('write notes', firstId);
    let results = 0;
    const done = collect(q, stderr, (m) => {
      if (m.type === 'result') results++;
    });
    await waitUntil(() => results === 1, 20_000, 'the first turn');

    // What initialize answered.
    const init = await q.initializationResult();
    expect(init.commands).toEqual(expect.arrayContaining([{ name: 'hello', description: 'Says hello', argumentHint: '' }]));
    expect(init).toMatchObject({ output_style: 'default', hook_on_failure_supported: true, current_permission_mode: 'acceptEdits', mcp_servers_applied: true });
    expect((init as unknown as { pid: number }).pid).toBeGreaterThan(0);
    expect((await q.supportedModels()).map((m) => m.value)).toEqual(['default', 'sonnet', 'opus', 'haiku']);
    expect((await q.supportedCommands()).map((c) => c.name)).toContain('hello');
    expect((await q.supportedAgents()).map((a) => a.name)).toContain('Explore');
    expect(await q.accountInfo()).toMatchObject({ apiKeySource: 'ANTHROPIC_API_KEY', apiProvider: 'firstParty' });
    expect((await q.reinitialize()).models).toHaveLength(4);

    // MCP servers.
    expect(await q.mcpServerStatus()).toEqual([expect.objectContaining({ name: 'test', status: 'connected' })]);
    await q.toggleMcpServer('test', false);
    expect((await q.mcpServerStatus())[0]).toMatchObject({ name: 'test', status: 'disabled', tools: [] });
    await q.toggleMcpServer('test', true);
    await q.reconnectMcpServer('test');
    expect((await q.mcpServerStatus())[0]).toMatchObject({ name: 'test', status: 'connected' });
    const resource = await q.readMcpResource('test', 'test://docs/readme');
    expect(resource.contents[0]).toMatchObject({ uri: 'test://docs/readme', text: README_TEXT });
    // A server the SDK adds is started (this one exits at once, so it fails) and listed; the next call removes it.
    const set = await q.setMcpServers({ second: { command: 'true' } });
    expect(set).toMatchObject({ added: ['second'], removed: [], errors: { second: expect.any(String) } });
    expect((await q.mcpServerStatus()).map((s) => `${s.name}:${s.status}`)).toEqual(['test:connected', 'second:failed']);
    expect(await q.setMcpServers({})).toEqual({ added: [], removed: ['second'], errors: {} });
    await expect(q.reconnectMcpServer('nope')).rejects.toThrow('no MCP server named "nope"');

    // Context, usage, files.
    const usage = await q.getContextUsage();
    expect(usage).toMatchObject({ maxTokens: 200_000, isAutoCompactEnabled: true });
    expect(usage.totalTokens).toBeGreaterThan(0);
    expect(usage.categories.map((c) => c.id)).toEqual(expect.arrayContaining(['system_prompt', 'system_tools', 'mcp_tools', 'messages', 'free_space']));
    const spent = await q.usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET();
    expect(spent.session.total_cost_usd).toBeGreaterThan(0);
    expect(await q.readFile('readme.txt')).toMatchObject({ contents: 'hello\n', absPath: t.project.path('readme.txt') });
    expect(await q.readFile('/etc/passwd')).toBeNull();
    await q.seedReadState('readme.txt', Date.now());

    // Rewind the files of the first message: notes.txt did not exist before it.
    expect(await q.rewindFiles(firstId, { dryRun: true })).toMatchObject({ canRewind: true, filesChanged: [notes] });
    expect(t.project.exists('notes.txt')).toBe(true);
    expect(await q.rewindFiles(firstId)).toMatchObject({ canRewind: true });
    expect(t.project.exists('notes.txt')).toBe(false);

    // Reloads.
    expect((await q.reloadSkills()).skills.map((s) => s.name)).toContain('hello');
    expect((await q.reloadOutputStyles()).available_output_styles).toContain('default');
    expect((await q.reloadPlugins()).mcpServers.map((s) => s.name)).toEqual(['test']);

    // Model and thinking for the next turn; flag settings; refusals.
    await q.setModel('opus');
    await q.setMaxThinkingTokens(2048);
    await q.applyFlagSettings({ effortLevel: 'low' });
    await expect(q.applyFlagSettings({ cleanupPeriodDays: 3 } as never)).rejects.toThrow('wicket cannot apply cleanupPeriodDays to a running session');
    await expect(q.stopTask('no-such-task')).rejects.toThrow('no background task no-such-task');
    await expect(q.setMcpPermissionModeOverride('test', 'auto')).rejects.toThrow('Unsupported control request subtype: set_mcp_permission_mode_override');
    expect(await q.interrupt()).toEqual({ still_queued: [] });
    feed.push('hi');
    await waitUntil(() => results === 2, 20_000, 'the second turn');
    feed.end();
    const run = await done;
    expect(run.error).toBeUndefined();
    const last = t.api.messageRequests().at(-1)!.body as Record<string, any>;
    expect(last.model).toBe('claude-opus-4-7');
    expect(last.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(last.output_config).toEqual({ effort: 'low' });
  });
});
