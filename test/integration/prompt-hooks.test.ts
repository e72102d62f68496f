/**
 * UserPromptExpansion hooks and SessionStart's initialUserMessage in print mode, through the built
 * binary against the fake Messages API.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';

const t = useApiAndProject();
type Body = { messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const text = (m: { content: any } | undefined) => (m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content));

/** A command hook that appends its stdin to <name>.jsonl in the project, then runs `then`. */
function recorder(name: string, then = 'true') {
  const file = `"$CLAUDE_PROJECT_DIR/${name}.jsonl"`;
  return { type: 'command', command: `cat >> ${file}; echo >> ${file}; ${then}` };
}
const seen = (name: string) =>
  existsSync(t.project.path(`${name}.jsonl`))
    ? readFileSync(t.project.path(`${name}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
const settings = (hooks: object) => t.project.write('.claude/settings.json', JSON.stringify({ hooks }));
function file(rel: string, body: string): void {
  mkdirSync(path.dirname(t.project.path(rel)), { recursive: true });
  writeFileSync(t.project.path(rel), body);
}
const json = (o: object) => `printf '%s' '${JSON.stringify(o)}'`;

describe('UserPromptExpansion hooks', () => {
  it('see the typed command (matched on its name) before it expands; their context goes to the model with the expanded prompt', async () => {
    file('.claude/commands/deploy.md', '---\ndescription: Deploy\n---\nDeploy to $ARGUMENTS now.\n');
    await settings({
      UserPromptExpansion: [
        {
          matcher: 'deploy',
          hooks: [
            recorder(
              'expansion',
              json({ hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: 'The deploy window is open until 17:00.' } }),
            ),
          ],
        },
        { matcher: 'other', hooks: [recorder('other')] },
      ],
      UserPromptSubmit: [{ hooks: [recorder('submit')] }],
    });
    t.api.script(reply().text('deploying'));
    const r = expectExit(await t.run(['-p', '/deploy staging']), 0);
    expect(r.stdout).toBe('deploying\n');
    expect(seen('expansion')).toEqual([
      expect.objectContaining({
        hook_event_name: 'UserPromptExpansion',
        expansion_type: 'slash_command',
        command_name: 'deploy',
        command_args: 'staging',
        command_source: 'projectSettings',
        prompt: '/deploy staging',
        session_id: expect.any(String),
        permission_mode: 'default',
      }),
    ]);
    expect(seen('other')).toEqual([]);
    // UserPromptSubmit still runs, after, on the expanded prompt.
    expect(seen('submit').map((s) => s.prompt)).toEqual(['Deploy to staging now.']);
    const first = text(bodies()[0]!.messages[0]);
    expect(first).toContain('Deploy to staging now.');
    expect(first).toContain('The deploy window is open until 17:00.');
    expect(first.indexOf('Deploy to staging now.')).toBeLessThan(first.indexOf('deploy window'));
  });

  it('exit 2 blocks the command before it expands: its inline shell never runs, nothing is sent, stderr says why, exit 1', async () => {
    file('.claude/commands/deploy.md', '---\nallowed-tools: Bash(touch:*)\n---\nRan: !`touch ran.txt`\nDeploy $ARGUMENTS.\n');
    await settings({
      UserPromptExpansion: [{ matcher: 'deploy', hooks: [{ type: 'command', command: 'echo "Deploys are frozen this week." >&2; exit 2' }] }],
      UserPromptSubmit: [{ hooks: [recorder('submit')] }],
    });
    const r = await t.run(['-p', '/deploy prod']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('wicket: /deploy was blocked by a UserPromptExpansion hook: Deploys are frozen this week.');
    expect(t.project.exists('ran.txt')).toBe(false);
    expect(t.api.messageRequests()).toHaveLength(0);
    expect(seen('submit')).toEqual([]);
  });

  it('decision "block" with a reason blocks a skill typed as a command; plain stdout of another hook is context', async () => {
    file('.claude/skills/review/SKILL.md', '---\ndescription: Review code\n---\nReview $ARGUMENTS carefully.\n');
    const gate = `[ -f "$CLAUDE_PROJECT_DIR/approved" ] || ${json({ decision: 'block', reason: 'Reviews need an approval file.' })}`;
    await settings({
      UserPromptExpansion: [
        {
          matcher: 'review',
          hooks: [
            { type: 'command', command: gate },
            { type: 'command', command: 'echo "Checklist: tests, names, errors."' },
          ],
        },
      ],
    });
    const blocked = await t.run(['-p', '/review src/a.ts', '--output-format', 'json']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('/review was blocked by a UserPromptExpansion hook: Reviews need an approval file.');
    expect(t.api.messageRequests()).toHaveLength(0);
    file('approved', '');
    t.api.script(reply().text('reviewed'));
    expectExit(await t.run(['-p', '/review src/a.ts']), 0);
    const first = text(bodies()[0]!.messages[0]);
    expect(first).toContain('Review src/a.ts carefully.');
    expect(first).toContain('Checklist: tests, names, errors.');
  });

  it('do not run for a plain prompt, an unknown command, or with --disable-slash-commands', async () => {
    file('.claude/commands/deploy.md', 'Deploy.\n');
    await settings({ UserPromptExpansion: [{ hooks: [recorder('expansion')] }] });
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await t.run(['-p', 'deploy it']), 0);
    expectExit(await t.run(['-p', '/nosuch thing']), 0);
    expectExit(await t.run(['-p', '/deploy', '--disable-slash-commands']), 0);
    expect(seen('expansion')).toEqual([]);
  });

  it('an MCP prompt typed as a command is an mcp_prompt expansion from source mcp', async () => {
    writeFileSync(
      t.project.path('.mcp.json'),
      JSON.stringify({ mcpServers: { test: { command: process.execPath, args: [path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs')] } } }),
    );
    await settings({ UserPromptExpansion: [{ matcher: 'mcp__test__.*', hooks: [recorder('expansion')] }] });
    t.api.script(reply().text('reviewed'));
    expectExit(await t.run(['-p', '/mcp__test__review 42 error handling'], { timeoutMs: 30_000 }), 0);
    expect(seen('expansion')).toEqual([
      expect.objectContaining({
        expansion_type: 'mcp_prompt',
        command_name: 'mcp__test__review',
        command_args: '42 error handling',
        command_source: 'mcp',
        prompt: '/mcp__test__review 42 error handling',
      }),
    ]);
    expect(text(bodies()[0]!.messages[0])).toContain('Review pull request 42, looking at error handling.');
  });
});

describe("SessionStart's initialUserMessage", () => {
  const initial = (message: string) => ({
    SessionStart: [{ hooks: [{ type: 'command', command: json({ hookSpecificOutput: { hookEventName: 'SessionStart', initialUserMessage: message } }) }] }],
  });

  it('is the first prompt of a print-mode run that was given none', async () => {
    await settings(initial('Summarize the open TODOs.'));
    t.api.script(reply().text('three TODOs'));
    const r = expectExit(await t.run(['-p']), 0);
    expect(r.stdout).toBe('three TODOs\n');
    expect(bodies()).toHaveLength(1);
    expect(text(bodies()[0]!.messages[0])).toContain('Summarize the open TODOs.');
  });

  it('comes first as a turn of its own; the given prompt follows as the next turn, in the same conversation', async () => {
    await settings(initial('Load the project notes.'));
    t.api.script(reply().text('loaded'), reply().text('answered'));
    const r = expectExit(await t.run(['-p', 'What changed?', '--output-format', 'stream-json', '--verbose']), 0);
    const results = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((m) => m.type === 'result');
    expect(results.map((m) => m.result)).toEqual(['loaded', 'answered']);
    const second = bodies()[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(text(second[0])).toContain('Load the project notes.');
    expect(text(second[2])).toContain('What changed?');
  });

  it('without it, a run with no prompt still fails with exit 2', async () => {
    await settings({ SessionStart: [{ hooks: [{ type: 'command', command: 'echo just context' }] }] });
    const r = await t.run(['-p']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no prompt');
    expect(t.api.messageRequests()).toHaveLength(0);
  });
});
