/**
 * Instruction files through the built binary, where Claude Code 2.1.332 was seen to differ from a
 * plain reading of its docs: a project rule linked to a file outside the working directory (left out
 * like an import from outside it), AGENTS.md of subfolders (one reminder, in the words of the hook
 * that brings them: `tool.call` for a Read, `prompt.mention` for an @-mention), the agents-md
 * option, which the project's own settings files do not set, a resumed session's subfolder
 * files, given again on a touch when they changed since, and a Read of a file that is not there,
 * which still touches its folder.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ git: true });
type Block = { type: string; text?: string };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const texts = (m: Body['messages'][number]) => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' ? [b.text!] : [])));
const HEADER =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

describe('rules reached through a link', () => {
  it('a link to a file inside the working directory is given under its real path; one to a file outside it is not, at the start or on a touch', async () => {
    await t.project.write('CLAUDE.md', 'Root.\n');
    await t.project.write('docs/inside.md', 'Inside: IN-MARK.\n');
    await t.project.write('src/a.ts', 'export const a = 1;\n');
    await t.project.writeHome('shared/outside.md', 'Outside: OUT-MARK.\n');
    await t.project.writeHome('shared/paths.md', '---\npaths: src/**\n---\nOutside paths: OUTPATH-MARK.\n');
    link(t.project.path('docs/inside.md'), t.project.path('.claude/rules/inside.md'));
    link(path.join(t.project.home, 'shared/outside.md'), t.project.path('.claude/rules/outside.md'));
    link(path.join(t.project.home, 'shared/paths.md'), t.project.path('.claude/rules/paths.md'));
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('src/a.ts') }), reply().text('done'));
    expectExit(await t.run(['-p', 'hello', '--allowedTools', 'Read']), 0);
    const [first, second] = bodies();
    expect(texts(first!.messages[0]!)[0]).toBe(
      [
        `<system-reminder>\n${HEADER}`,
        `Contents of ${t.project.path('CLAUDE.md')} (project instructions, checked into the codebase):\n\nRoot.`,
        `Contents of ${t.project.path('docs/inside.md')} (project instructions, checked into the codebase):\n\nInside: IN-MARK.\n</system-reminder>`,
      ].join('\n\n'),
    );
    expect(JSON.stringify(t.api.requests)).not.toMatch(/OUT-MARK|OUTPATH-MARK/);
    expect(texts(second!.messages.at(-1)!)).toEqual([]);
  });
});

describe('AGENTS.md of a subfolder', () => {
  it('a Read brings the folders’ files in one reminder, in the words of the tool.call hook', async () => {
    await t.project.write('AGENTS.md', 'Top.\n');
    await t.project.write('a/AGENTS.md', 'A: A-MARK.\n');
    await t.project.write('a/b/AGENTS.md', 'B: B-MARK.\n');
    await t.project.write('a/b/x.ts', 'x\n');
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a/b/x.ts') }), reply().text('done'));
    expectExit(await t.run(['-p', 'hello', '--allowedTools', 'Read']), 0);
    expect(texts(bodies()[1]!.messages.at(-1)!)).toEqual([
      `<system-reminder>\ntool.call hook additional context: Contents of ${t.project.path('a/AGENTS.md')}:\n\nA: A-MARK.\n\nContents of ${t.project.path('a/b/AGENTS.md')}:\n\nB: B-MARK.\n\n</system-reminder>`,
    ]);
  });

  it('an @-mention brings them in the words of the prompt.mention hook', async () => {
    await t.project.write('AGENTS.md', 'Top.\n');
    await t.project.write('a/AGENTS.md', 'A: A-MARK.\n');
    await t.project.write('a/x.ts', 'x\n');
    t.api.script(reply().text('done'));
    expectExit(await t.run(['-p', 'look at @a/x.ts']), 0);
    expect(texts(bodies()[0]!.messages[0]!).at(-1)).toBe(
      `<system-reminder>\nprompt.mention hook additional context: Contents of ${t.project.path('a/AGENTS.md')}:\n\nA: A-MARK.\n\n</system-reminder>`,
    );
  });

  it('the agents-md option counts from the user’s settings, not from the project’s', async () => {
    const both = { pluginConfigs: { 'agents-md@builtin': { options: { instructionFiles: 'claude-md-and-agents-md' } } } };
    await t.project.write('CLAUDE.md', 'Claude.\n');
    await t.project.write('AGENTS.md', 'Agents: AGENTS-MARK.\n');
    await t.project.write('.claude/settings.json', JSON.stringify(both));
    await t.project.write('.claude/settings.local.json', JSON.stringify(both));
    t.api.script(reply().text('done'));
    expectExit(await t.run(['-p', 'hello']), 0);
    expect(JSON.stringify(bodies()[0])).not.toContain('AGENTS-MARK');
    await t.project.writeHome('.claude/settings.json', JSON.stringify(both));
    t.api.script(reply().text('done'));
    expectExit(await t.run(['-p', 'hello']), 0);
    expect(texts(bodies()[1]!.messages[0]!)[0]).toContain(
      `Contents of ${t.project.path('AGENTS.md')} (project instructions, checked into the codebase):\n\nAgents: AGENTS-MARK.\n</system-reminder>`,
    );
  });
});

describe('a resumed session', () => {
  it('gets a subfolder CLAUDE.md again on its next touch when it changed since it was given, and not when it did not', async () => {
    await t.project.write('CLAUDE.md', 'Root.\n');
    await t.project.write('a/CLAUDE.md', 'A: FIRST-MARK.\n');
    await t.project.write('a/x.ts', 'x\n');
    await t.project.write('b/CLAUDE.md', 'B: SAME-MARK.\n');
    await t.project.write('b/y.ts', 'y\n');
    const read = (f: string) => reply().toolUse('Read', { file_path: t.project.path(f) });
    t.api.script(read('a/x.ts'), read('b/y.ts'), reply().text('one'));
    expectExit(await t.run(['-p', 'first', '--allowedTools', 'Read']), 0);
    await t.project.write('a/CLAUDE.md', 'A: SECOND-MARK.\n');
    t.api.script(read('a/x.ts'), read('b/y.ts'), reply().text('two'));
    expectExit(await t.run(['-p', 'second', '--continue', '--allowedTools', 'Read']), 0);
    const b = bodies();
    expect(texts(b[4]!.messages.at(-1)!)).toEqual([
      `<system-reminder>\nContents of ${t.project.path('a/CLAUDE.md')}:\n\nA: SECOND-MARK.\n\n</system-reminder>`,
    ]);
    expect(texts(b[5]!.messages.at(-1)!)).toEqual([]);
  });
});

describe('a Read of nothing', () => {
  it('a missing file or a folder still touches the path: its folder’s CLAUDE.md and the rules that match come; not when a deny rule covers it', async () => {
    await t.project.write('CLAUDE.md', 'Root.\n');
    await t.project.write('a/CLAUDE.md', 'A: A-MARK.\n');
    await t.project.write('a/x.ts', 'x\n');
    await t.project.write('b/CLAUDE.md', 'B: B-MARK.\n');
    await t.project.write('b/x.ts', 'x\n');
    await t.project.write('.claude/rules/a.md', '---\npaths: a/**\n---\nRule: RULE-MARK.\n');
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(./b/missing.ts)'] } }));
    const read = (f: string) => reply().toolUse('Read', { file_path: t.project.path(f) });
    t.api.script(read('b/missing.ts'), read('a/missing.ts'), read('a'), reply().text('done'));
    expectExit(await t.run(['-p', 'hello', '--allowedTools', 'Read']), 0);
    const b = bodies();
    expect(texts(b[1]!.messages.at(-1)!)).toEqual([]);
    expect(texts(b[2]!.messages.at(-1)!)).toEqual([
      `<system-reminder>\nContents of ${t.project.path('a/CLAUDE.md')}:\n\nA: A-MARK.\n\n</system-reminder>\n`,
      `<system-reminder>\nContents of ${t.project.path('.claude/rules/a.md')}:\n\nRule: RULE-MARK.\n\n</system-reminder>`,
    ]);
    expect(JSON.stringify(t.api.requests)).not.toContain('B-MARK');
  });

  it('a Read of a folder touches it: a rule whose paths match the folder comes', async () => {
    await t.project.write('CLAUDE.md', 'Root.\n');
    await t.project.write('a/x.ts', 'x\n');
    await t.project.write('.claude/rules/a.md', '---\npaths: a/**\n---\nRule: RULE-MARK.\n');
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a') }), reply().text('done'));
    expectExit(await t.run(['-p', 'hello', '--allowedTools', 'Read']), 0);
    expect(texts(bodies()[1]!.messages.at(-1)!)).toEqual([
      `<system-reminder>\nContents of ${t.project.path('.claude/rules/a.md')}:\n\nRule: RULE-MARK.\n\n</system-reminder>`,
    ]);
  });
});
