/** Print mode in a workspace nobody trusted: the project's own allow rules wait for trust; deny rules do not. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';
import { trustFolder } from '../support/tmp-project.js';

const ctx = useApiAndProject({
  trusted: false,
  files: { 'notes.txt': 'hello\n' },
  settings: { permissions: { allow: ['Bash(touch:*)'], deny: ['Read(./notes.txt)'] } },
});

describe('workspace trust in print mode', () => {
  it("an untrusted project's allow rules are ignored with a warning; its deny rules still apply", async () => {
    const { api, project } = ctx;
    api.script(
      reply()
        .toolUse('Bash', { command: 'touch made.txt' }, { id: 'toolu_b' })
        .toolUse('Read', { file_path: project.path('notes.txt') }, { id: 'toolu_r' }),
      reply().text('done'),
    );
    const r = await ctx.run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.stderr).toContain(
      `${project.path('.claude/settings.json')}: ignoring 1 permissions.allow entry: this workspace has not been trusted. Trust it with \`wicket trust\` (for CI too: it records hasTrustDialogAccepted in ~/.claude.json, as Claude Code does), or run wicket here once without -p and answer "Yes, I trust this folder"`,
    );
    expect(r.json<any>().permission_denials.map((d: any) => d.tool_name)).toEqual(['Bash', 'Read']);
    const results = (api.messageRequests()[1]!.body as any).messages.at(-1).content;
    expect(JSON.stringify(results[1])).toMatch(/denied/);
    expect(project.exists('made.txt')).toBe(false);
  });

  it('once the folder (or one above it) is trusted in ~/.claude.json, the allow rules apply and nothing is said', async () => {
    const { api, project } = ctx;
    await trustFolder(project.home, join(project.dir, '..'));
    expect(JSON.parse(readFileSync(join(project.home, '.claude.json'), 'utf8')).projects).toBeTruthy();
    api.script(reply().toolUse('Bash', { command: 'touch made.txt' }, { id: 'toolu_b' }), reply().text('done'));
    const r = await ctx.run(['-p', 'go', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.stderr).not.toContain('not been trusted');
    expect(r.json<any>().permission_denials).toEqual([]);
    expect(project.exists('made.txt')).toBe(true);
  });
});
