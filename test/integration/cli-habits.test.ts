/**
 * The command line as a Claude Code user types it: `wicket trust` trusts a folder for CI, and a prompt
 * swallowed by a flag that takes several values is named instead of being read as rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const ctx = useApiAndProject({ trusted: false, git: true, files: { 'sub/a.txt': 'a\n' }, settings: { permissions: { allow: ['Bash(touch:*)'] } } });

describe('wicket trust', () => {
  it("records hasTrustDialogAccepted for the repository's root, and print mode then applies the project's allow rules", async () => {
    const { api, project } = ctx;
    const first = await ctx.run(['trust', 'sub']);
    expectExit(first, 0);
    expect(first.stdout).toContain(`Trusted ${project.dir}`);
    const config = JSON.parse(readFileSync(join(project.home, '.claude.json'), 'utf8'));
    expect(config.projects[project.dir].hasTrustDialogAccepted).toBe(true);
    expect((await ctx.run(['trust'])).stdout).toContain('is already trusted');
    api.script(reply().toolUse('Bash', { command: 'touch made.txt' }), reply().text('done'));
    const r = await ctx.run(['-p', 'go']);
    expectExit(r, 0);
    expect(r.stderr).not.toContain('not been trusted');
    expect(project.exists('made.txt')).toBe(true);
  });

  it('an untrusted project names `wicket trust` in print mode; the home folder and a missing folder are refused', async () => {
    const { api, project } = ctx;
    api.script(reply().text('done'));
    const r = await ctx.run(['-p', 'go']);
    expect(r.stderr).toContain('Trust it with `wicket trust`');
    const home = await ctx.run(['trust', project.home]);
    expectExit(home, 1);
    expect(home.stderr).toContain('is your home folder');
    expectExit(await ctx.run(['trust', 'no-such-folder']), 1);
    expectExit(await ctx.run(['trust', 'a', 'b']), 2);
  });
});

describe('a prompt swallowed by a flag that takes several values', () => {
  it('is named, with the way to write it, and nothing is sent', async () => {
    const { api } = ctx;
    const r = await ctx.run(['-p', '--allowedTools', 'Read', 'explain this']);
    expectExit(r, 2);
    expect(r.stderr).toContain('--allowedTools took "explain this" as one of its values, so no prompt was given');
    expect(r.stderr).toContain('wicket --allowedTools Read -- "explain this"');
    expect(api.messageRequests()).toHaveLength(0);
  });

  it('rules with spaces inside parentheses, and a prompt after --, are read as meant', async () => {
    const { api } = ctx;
    api.script(reply().text('one'), reply().text('two'));
    expectExit(await ctx.run(['-p', '--allowedTools', 'Read', 'Bash(git log *)'], { stdin: 'from stdin' }), 0);
    const r = await ctx.run(['-p', '--allowedTools', 'Read', '--', 'explain this']);
    expectExit(r, 0);
    expect(JSON.stringify(api.messageRequests().at(-1)!.body.messages)).toContain('explain this');
  });
});
