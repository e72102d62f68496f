/**
 * Instruction files through the built binary, as the fake API receives them: the start's files at
 * the head of the first user message (not in the system prompt), subfolder files and path rules
 * after the tool results of the first touch, auto memory, Read deny rules, AGENTS.md, hooks.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ git: true });
type Block = { type: string; text?: string; tool_use_id?: string };
type Body = { system?: Array<{ text: string }>; messages: Array<{ role: string; content: string | Block[] }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const blocks = (m: Body['messages'][number]) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
/** The text blocks that follow the tool results in the last user message of a request. */
const afterResults = (b: Body) => blocks(b.messages.at(-1)!).flatMap((x) => (x.type === 'text' ? [x.text!] : []));

describe('the start’s instruction files', () => {
  it('come first in the first user message, in Claude Code’s words and order; the system prompt does not hold them', async () => {
    await t.project.write('CLAUDE.md', 'Project rule: PROJECT-MARK.\n');
    await t.project.write('CLAUDE.local.md', 'Local: LOCAL-MARK.\n');
    await t.project.write('.claude/rules/style.md', 'Rule: RULE-MARK.\n');
    await t.project.writeHome('.claude/CLAUDE.md', 'User: USER-MARK.\n');
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hello']), 0);
    const first = bodies()[0]!;
    expect(JSON.stringify(first.system)).not.toMatch(/PROJECT-MARK|USER-MARK/);
    const [instructions, prompt] = blocks(first.messages[0]!);
    expect(prompt).toEqual(expect.objectContaining({ type: 'text', text: 'hello' }));
    expect(instructions!.text).toBe(
      [
        `<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.`,
        `Contents of ${t.project.home}/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nUser: USER-MARK.`,
        `Contents of ${t.project.path('CLAUDE.md')} (project instructions, checked into the codebase):\n\nProject rule: PROJECT-MARK.`,
        `Contents of ${t.project.path('.claude/rules/style.md')} (project instructions, checked into the codebase):\n\nRule: RULE-MARK.`,
        `Contents of ${t.project.path('CLAUDE.local.md')} (user's private project instructions, not checked in):\n\nLocal: LOCAL-MARK.\n</system-reminder>`,
      ].join('\n\n'),
    );
  });

  it('the managed policy’s CLAUDE.md and claudeMd come first; CLAUDE_CONFIG_DIR moves the user’s file', async () => {
    const managedDir = path.join(t.project.home, 'managed');
    await t.project.writeHome('managed/managed-settings.json', JSON.stringify({ claudeMd: 'Policy text: SETTING-MARK.' }));
    await t.project.writeHome('managed/CLAUDE.md', 'Managed: MANAGED-MARK.\n');
    await t.project.writeHome('.claude/CLAUDE.md', 'not this one: HOME-MARK');
    await t.project.writeHome('alt/CLAUDE.md', 'User from the config dir: ALT-MARK.\n');
    t.api.script(reply().text('ok'));
    const env = { WICKET_MANAGED_SETTINGS: path.join(managedDir, 'managed-settings.json'), CLAUDE_CONFIG_DIR: path.join(t.project.home, 'alt') };
    expectExit(await t.run(['-p', 'hello'], { env }), 0);
    const text = blocks(bodies()[0]!.messages[0]!)[0]!.text!;
    expect(text).not.toContain('HOME-MARK');
    const order = ['MANAGED-MARK', 'SETTING-MARK', 'ALT-MARK'].map((m) => text.indexOf(m));
    expect(order.every((n, i) => n > 0 && (i === 0 || n > order[i - 1]!))).toBe(true);
    expect(text).toContain(`Contents of ${path.join(managedDir, 'CLAUDE.md')} (organization-managed policy instructions):`);
    expect(text).toContain('Contents of <managed-settings> (organization-managed policy instructions):\n\nPolicy text: SETTING-MARK.');
  });

  it('@ imports are given after their file; a missing one is a warning on stderr; a denied one is never sent, and the model is told', async () => {
    await t.project.write('CLAUDE.md', 'See @docs/guide.md, then @docs/guide2.md and @docs/gone.md and @secret/keys.md\n');
    await t.project.write('docs/guide2.md', 'Guide: GUIDE-MARK.\n');
    await t.project.write('secret/keys.md', 'zq9-SECRET-TOKEN\n');
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(./secret/**)'] } }));
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'hello']);
    expectExit(r, 0);
    expect(JSON.stringify(t.api.requests)).not.toContain('zq9-SECRET-TOKEN');
    const [files, note] = blocks(bodies()[0]!.messages[0]!);
    expect(files!.text).toContain(`Contents of ${t.project.path('docs/guide2.md')} (project instructions, checked into the codebase):\n\nGuide: GUIDE-MARK.`);
    expect(note!.text).toBe(
      `<system-reminder>\nInstruction files not loaded (a Read deny rule covers each; do not try to read them):\n- ${t.project.path('secret/keys.md')} (imported by ${t.project.path('CLAUDE.md')})\n</system-reminder>`,
    );
    expect(r.stderr).toContain(`${t.project.path('CLAUDE.md')} imports ${t.project.path('docs/gone.md')}, which does not exist`);
    expect(r.stderr).toContain(`imports ${t.project.path('docs/guide.md,')}, which does not exist`);
  });

  it('CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 gives none, as in Claude Code', async () => {
    await t.project.write('CLAUDE.md', 'Project: PROJECT-MARK.\n');
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hello'], { env: { CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1' } }), 0);
    expect(JSON.stringify(t.api.requests)).not.toContain('PROJECT-MARK');
    expect(blocks(bodies()[0]!.messages[0]!)).toEqual([expect.objectContaining({ text: 'hello' })]);
  });

  it('AGENTS.md is read when the project has no CLAUDE.md, and not when it has one', async () => {
    await t.project.write('AGENTS.md', 'Agents: AGENTS-MARK.\n');
    t.api.script(reply().text('ok'), reply().text('ok'));
    expectExit(await t.run(['-p', 'hello']), 0);
    expect(blocks(bodies()[0]!.messages[0]!)[0]!.text).toContain(
      `Contents of ${t.project.path('AGENTS.md')} (project instructions, checked into the codebase):\n\nAgents: AGENTS-MARK.`,
    );
    await t.project.write('CLAUDE.md', 'Claude only.\n');
    expectExit(await t.run(['-p', 'hello']), 0);
    expect(JSON.stringify(bodies()[1])).not.toContain('AGENTS-MARK');
  });
});

describe('files given on touch', () => {
  it('a Read under a subfolder brings its CLAUDE.md after the tool result, once; a Write that matches a rule’s paths brings the rule', async () => {
    await t.project.write('CLAUDE.md', 'root\n');
    await t.project.write('pkg/CLAUDE.md', 'Package: PKG-MARK.\n');
    await t.project.write('pkg/a.txt', 'a\n');
    await t.project.write('pkg/b.txt', 'b\n');
    await t.project.write('.claude/rules/ts.md', '---\npaths: "src/**/*.ts"\n---\nTS: TS-MARK.\n');
    t.api.script(
      reply().toolUse('Read', { file_path: t.project.path('pkg/a.txt') }, { id: 'toolu_1' }),
      reply().toolUse('Read', { file_path: t.project.path('pkg/b.txt') }, { id: 'toolu_2' }),
      reply().toolUse('Write', { file_path: t.project.path('src/new.ts'), content: 'export {};\n' }, { id: 'toolu_3' }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'work', '--allowedTools', 'Read,Write']), 0);
    const b = bodies();
    expect(JSON.stringify(b[0])).not.toMatch(/PKG-MARK|TS-MARK/);
    expect(afterResults(b[1]!)).toEqual([`<system-reminder>\nContents of ${t.project.path('pkg/CLAUDE.md')}:\n\nPackage: PKG-MARK.\n\n</system-reminder>`]);
    expect(afterResults(b[2]!)).toEqual([]);
    expect(afterResults(b[3]!)).toEqual([`<system-reminder>\nContents of ${t.project.path('.claude/rules/ts.md')}:\n\nTS: TS-MARK.\n\n</system-reminder>`]);
  });

  it('`cat` in Bash counts as a touch for a rule’s paths; a Read under a subfolder brings its AGENTS.md where the project has no CLAUDE.md', async () => {
    await t.project.write('AGENTS.md', 'root agents\n');
    await t.project.write('src/a.ts', 'export const a = 1;\n');
    await t.project.write('.claude/rules/src.md', '---\npaths: ["src/**"]\n---\nSrc: SRC-MARK.\n');
    await t.project.write('sub/AGENTS.md', 'Sub: SUB-AGENTS-MARK.\n');
    await t.project.write('sub/f.txt', 'f\n');
    t.api.script(
      reply().toolUse('Bash', { command: 'cat src/a.ts' }, { id: 'toolu_1' }),
      reply().toolUse('Read', { file_path: t.project.path('sub/f.txt') }, { id: 'toolu_2' }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'look', '--allowedTools', 'Read,Bash(cat:*)']), 0);
    const b = bodies();
    expect(afterResults(b[1]!)).toEqual([`<system-reminder>\nContents of ${t.project.path('.claude/rules/src.md')}:\n\nSrc: SRC-MARK.\n\n</system-reminder>`]);
    expect(afterResults(b[2]!)).toEqual([
      `<system-reminder>\ntool.call hook additional context: Contents of ${t.project.path('sub/AGENTS.md')}:\n\nSub: SUB-AGENTS-MARK.\n\n</system-reminder>`,
    ]);
  });

  it('InstructionsLoaded hooks hear each file with its load reason, trigger, globs and importer', async () => {
    const log = path.join(t.project.home, 'il.jsonl');
    await t.project.write('CLAUDE.md', 'root @docs/more.md\n');
    await t.project.write('docs/more.md', 'more\n');
    await t.project.write('pkg/CLAUDE.md', 'pkg\n');
    await t.project.write('pkg/x.py', 'x\n');
    await t.project.write('.claude/rules/py.md', '---\npaths: ["**/*.py"]\n---\npy\n');
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { InstructionsLoaded: [{ hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] }] } }),
    );
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('pkg/x.py') }), reply().text('done'));
    expectExit(await t.run(['-p', 'go', '--allowedTools', 'Read']), 0);
    const seen = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const pick = (e: Record<string, unknown>) => [e.file_path, e.memory_type, e.load_reason, e.trigger_file_path, e.parent_file_path, e.globs];
    expect(seen.map(pick)).toEqual([
      [t.project.path('CLAUDE.md'), 'Project', 'session_start', undefined, undefined, undefined],
      [t.project.path('docs/more.md'), 'Project', 'include', undefined, t.project.path('CLAUDE.md'), undefined],
      [t.project.path('pkg/CLAUDE.md'), 'Project', 'nested_traversal', t.project.path('pkg/x.py'), undefined, undefined],
      [t.project.path('.claude/rules/py.md'), 'Project', 'path_glob_match', t.project.path('pkg/x.py'), undefined, ['**/*.py']],
    ]);
  });
});

describe('compaction', () => {
  it('the start’s files head the summary too (hooks hear “compact”); a subfolder’s file comes again on its next touch', async () => {
    const log = path.join(t.project.home, 'il.jsonl');
    await t.project.write('CLAUDE.md', 'Root: ROOT-MARK.\n');
    await t.project.write('pkg/CLAUDE.md', 'Package: PKG-MARK.\n');
    await t.project.write('pkg/a.txt', 'a\n');
    await t.project.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { InstructionsLoaded: [{ matcher: 'compact', hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] }] } }),
    );
    t.api.script(
      reply()
        .toolUse('Read', { file_path: t.project.path('pkg/a.txt') })
        .usage({ input_tokens: 9000 }),
      reply().text('SUMMARY: read pkg/a.txt.'),
      reply().toolUse('Read', { file_path: t.project.path('pkg/a.txt') }),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'read it', '--allowedTools', 'Read'], { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '40000' } }), 0);
    const [, , afterSummary, afterRead] = bodies();
    const [instructions, summary] = blocks(afterSummary!.messages[0]!);
    expect(instructions!.text).toContain('Root: ROOT-MARK.');
    expect(summary!.text).toContain('SUMMARY: read pkg/a.txt.');
    expect(afterResults(afterRead!).join('')).toContain('Package: PKG-MARK.');
    const heard = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(heard.map((e) => [e.file_path, e.load_reason])).toEqual([[t.project.path('CLAUDE.md'), 'compact']]);
  });
});

describe('sub-agents', () => {
  it('a general-purpose sub-agent gets the instruction files in its first message; Explore gets only the managed ones', async () => {
    const managed = path.join(t.project.home, 'managed', 'managed-settings.json');
    await t.project.writeHome('managed/managed-settings.json', '{}');
    await t.project.writeHome('managed/CLAUDE.md', 'Managed: MANAGED-MARK.\n');
    await t.project.write('CLAUDE.md', 'Project: PROJECT-MARK.\n');
    t.api.script(
      reply().toolUse('Agent', { description: 'a', prompt: 'look around', subagent_type: 'general-purpose' }),
      reply().text('general report'),
      reply().toolUse('Agent', { description: 'b', prompt: 'search', subagent_type: 'Explore' }),
      reply().text('explore report'),
      reply().text('done'),
    );
    expectExit(await t.run(['-p', 'go'], { env: { WICKET_MANAGED_SETTINGS: managed } }), 0);
    const [, general, , explore] = bodies();
    const firstOf = (b: Body) => JSON.stringify(b.messages[0]);
    expect(firstOf(general!)).toMatch(/MANAGED-MARK[\s\S]*PROJECT-MARK[\s\S]*look around/);
    expect(firstOf(explore!)).toContain('MANAGED-MARK');
    expect(firstOf(explore!)).not.toContain('PROJECT-MARK');
  });
});

describe('auto memory', () => {
  const memoryDir = () => path.join(t.project.home, '.claude', 'projects', t.project.dir.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');

  it('its MEMORY.md comes last; the system prompt says where it is; the model writes there in print mode without asking', async () => {
    await t.project.writeHome(path.relative(t.project.home, path.join(memoryDir(), 'MEMORY.md')), '- [Tabs](tabs.md) — the user wants tabs\n');
    await t.project.write('CLAUDE.md', 'root\n');
    const note = path.join(memoryDir(), 'testing.md');
    t.api.script(reply().toolUse('Write', { file_path: note, content: '---\nname: testing\n---\nRun vitest.\n' }), reply().text('saved'));
    const r = await t.run(['-p', 'remember that', '--output-format', 'json']);
    expectExit(r, 0);
    const first = bodies()[0]!;
    expect(first.system!.map((s) => s.text).join('\n')).toContain(`You have a persistent memory folder for this project: ${memoryDir()}`);
    expect(blocks(first.messages[0]!)[0]!.text).toMatch(
      /\(user's auto-memory, persists across conversations\):\n\n- \[Tabs\]\(tabs\.md\) — the user wants tabs\n<\/system-reminder>$/,
    );
    expect(r.json<{ permission_denials: unknown[] }>().permission_denials).toEqual([]);
    expect(readFileSync(note, 'utf8')).toContain('Run vitest.');
  });

  it('autoMemoryEnabled: false turns it off; a project file cannot move it (autoMemoryDirectory)', async () => {
    await t.project.write('.claude/settings.json', JSON.stringify({ autoMemoryDirectory: path.join(t.project.dir, 'evil') }));
    t.api.script(reply().text('ok'), reply().text('ok'));
    expectExit(await t.run(['-p', 'hi']), 0);
    expect(existsSync(t.project.path('evil'))).toBe(false);
    expect(existsSync(memoryDir())).toBe(true);
    await t.project.write('.claude/settings.local.json', JSON.stringify({ autoMemoryEnabled: false }));
    expectExit(await t.run(['-p', 'hi']), 0);
    expect(JSON.stringify(bodies()[1]!.system)).not.toContain('persistent memory folder');
  });
});

describe('imports from outside the project', () => {
  it('print mode leaves them out until the project’s answer in ~/.claude.json is yes; wicket config says why', async () => {
    await t.project.writeHome('shared/ext.md', 'Shared: EXTERNAL-MARK.\n');
    const ext = path.join(t.project.home, 'shared/ext.md');
    await t.project.write('CLAUDE.md', `Project. @${ext}\n`);
    t.api.script(reply().text('ok'), reply().text('ok'));
    expectExit(await t.run(['-p', 'hello']), 0);
    expect(JSON.stringify(t.api.requests)).not.toContain('EXTERNAL-MARK');
    const config = await t.run(['config']);
    expect(config.stdout).toContain(`${ext} — outside the working directory: imports from outside it need approval, which the app asks for once per project`);
    const state = JSON.parse(readFileSync(path.join(t.project.home, '.claude.json'), 'utf8'));
    state.projects[t.project.dir] = {
      ...state.projects[t.project.dir],
      hasClaudeMdExternalIncludesApproved: true,
      hasClaudeMdExternalIncludesWarningShown: true,
    };
    await t.project.writeHome('.claude.json', JSON.stringify(state));
    expectExit(await t.run(['-p', 'hello']), 0);
    const text = blocks(bodies().at(-1)!.messages[0]!)[0]!.text!;
    expect(text).toContain(`Contents of ${ext} (project instructions, checked into the codebase):\n\nShared: EXTERNAL-MARK.`);
  });
});

describe('wicket config', () => {
  it('lists every instruction file that loaded, why, its size in tokens, what waits, and what was left out and why', async () => {
    await t.project.write('CLAUDE.md', 'Root text, forty characters long......\n@docs/a.md @docs/none.md @secret.md\n');
    await t.project.write('docs/a.md', 'a\n');
    await t.project.write('secret.md', 's\n');
    await t.project.write('.claude/rules/ts.md', '---\npaths: "**/*.ts"\n---\nts\n');
    await t.project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(./secret.md)'] }, claudeMdExcludes: ['**/CLAUDE.local.md'] }));
    await t.project.write('CLAUDE.local.md', 'local\n');
    const r = await t.run(['config']);
    expectExit(r, 0);
    expect(r.stdout).toContain('Instruction files (given at the start, in this order;');
    expect(r.stdout).toMatch(new RegExp(`1\\. ${t.project.path('CLAUDE.md')} — project instructions of ${t.project.dir}, ~\\d+ tokens`));
    expect(r.stdout).toContain(`2. ${t.project.path('docs/a.md')} — imported by ${t.project.path('CLAUDE.md')}, ~1 tokens`);
    expect(r.stdout).toContain(`${t.project.path('.claude/rules/ts.md')} — paths: **/*.ts`);
    expect(r.stdout).toContain(`${t.project.path('docs/none.md')} — not found (named by ${t.project.path('CLAUDE.md')})`);
    expect(r.stdout).toContain(`${t.project.path('secret.md')} — a Read deny rule covers it (Read(./secret.md))`);
    expect(r.stdout).toContain(`${t.project.path('CLAUDE.local.md')} — left out by claudeMdExcludes`);
    expect(t.api.requests).toHaveLength(0);
  });
});
