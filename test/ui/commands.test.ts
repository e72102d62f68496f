import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allCommands, matchCommands, parseSlash } from '../../src/ui/commands/index.js';
import { expandArguments, loadCustomCommands, parseFrontmatter, splitArgs } from '../../src/ui/commands/custom.js';
import { expandSlashPrompt } from '../../src/commands/custom-commands.js';
import { appendHistory, historyFile, HistoryCursor, loadHistory, searchHistory } from '../../src/ui/history.js';
import { removeLocalRule } from '../../src/ui/local-settings.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wicket-cmd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('custom commands', () => {
  it('come from the project and the user folder; subfolders namespace; the project wins', () => {
    const project = path.join(dir, 'p');
    const config = path.join(dir, 'config');
    mkdirSync(path.join(project, '.claude', 'commands', 'git'), { recursive: true });
    mkdirSync(path.join(config, 'commands'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'commands', 'git', 'commit.md'),
      '---\ndescription: "Commit staged work"\nargument-hint: [message]\n---\nCommit with $ARGUMENTS',
    );
    writeFileSync(path.join(project, '.claude', 'commands', 'fix.md'), 'Fix the project issue');
    writeFileSync(path.join(config, 'commands', 'fix.md'), 'Fix the user issue');
    writeFileSync(path.join(config, 'commands', 'explain.md'), 'Explain $1 then $2');
    const cmds = loadCustomCommands(project, config);
    expect(cmds.map((c) => [c.name, c.source, c.description])).toEqual([
      ['fix', 'project', 'Fix the project issue'],
      ['git:commit', 'project', 'Commit staged work'],
      ['explain', 'user', 'Explain $1 then $2'],
    ]);
    expect(cmds[1]!.argumentHint).toBe('[message]');
    expect(allCommands(project, config).some((c) => c.name === 'help')).toBe(true);
  });

  it('expand $ARGUMENTS, $ARGUMENTS[N] and $1…$9; arguments are appended when unused', () => {
    expect(expandArguments('Review $ARGUMENTS now', 'src/a.ts src/b.ts')).toBe('Review src/a.ts src/b.ts now');
    expect(expandArguments('First $ARGUMENTS[0], second $ARGUMENTS[1]', '"a b" c')).toBe('First a b, second c');
    expect(expandArguments('From $1 to $2', 'x y')).toBe('From x to y');
    expect(expandArguments('Do the thing', 'quickly')).toBe('Do the thing\n\nARGUMENTS: quickly');
    expect(expandArguments('Do the thing', '')).toBe('Do the thing');
    expect(splitArgs(`one "two three" 'four five' six`)).toEqual(['one', 'two three', 'four five', 'six']);
    expect(parseFrontmatter('---\na: 1\n---\nbody').meta).toEqual({ a: '1' });
  });

  it('frontmatter: a key written as a YAML list is joined; plain values stay as written', () => {
    const text = '---\ndescription: Commit: with care\nargument-hint: [message]\nallowed-tools:\n  - Bash(git add:*)\n  - Read\n---\nbody';
    expect(parseFrontmatter(text)).toEqual({
      meta: { description: 'Commit: with care', 'argument-hint': '[message]', 'allowed-tools': 'Bash(git add:*), Read' },
      body: 'body',
    });
  });

  it('fill in ${CLAUDE_PROJECT_DIR} and ${CLAUDE_SESSION_ID}; a print-mode prompt naming one becomes its text', async () => {
    const project = path.join(dir, 'p');
    mkdirSync(path.join(project, '.claude', 'commands', 'ci'), { recursive: true });
    writeFileSync(
      path.join(project, '.claude', 'commands', 'ci', 'triage.md'),
      '---\ndescription: Triage\n---\nTriage $1 in ${CLAUDE_PROJECT_DIR} (session ${CLAUDE_SESSION_ID})',
    );
    const ctx = { projectDir: project, sessionId: 'sess-1' };
    const roots = { projectRoot: project, configDir: path.join(dir, 'none') };
    const noShell = () => Promise.reject(new Error('no inline shell here'));
    expect(await expandSlashPrompt('/ci:triage flaky-test', roots, ctx, noShell)).toEqual({
      ok: true,
      text: `Triage flaky-test in ${project} (session sess-1)`,
      allowedTools: [],
    });
    expect(await expandSlashPrompt('/unknown thing', roots, ctx, noShell)).toEqual({ ok: true, text: '/unknown thing', allowedTools: [] });
    expect(await expandSlashPrompt('plain words', roots, ctx, noShell)).toEqual({ ok: true, text: 'plain words', allowedTools: [] });
  });

  it('are found by prefix for the hint list and parsed from a typed line', () => {
    const cmds = allCommands(dir, dir);
    expect(matchCommands(cmds, '/pe').map((c) => c.name)).toEqual(['permissions']);
    expect(matchCommands(cmds, '/model x')).toEqual([]);
    expect(parseSlash('/model  opus ')).toEqual({ name: 'model', args: 'opus' });
    expect(parseSlash('not a command')).toBeUndefined();
  });
});

describe('prompt history', () => {
  it('is searched newest first, case-insensitively, skipping repeats of the current match', () => {
    const entries = ['Run tests', 'fix parser', 'run lint', 'run lint'];
    expect(searchHistory(entries, 'RUN')).toEqual({ index: 3, entry: 'run lint' });
    expect(searchHistory(entries, 'run', 3, 'run lint')).toEqual({ index: 0, entry: 'Run tests' });
    expect(searchHistory(entries, 'run', 0)).toBeUndefined();
    expect(searchHistory(entries, 'nothing')).toBeUndefined();
  });

  it('is kept per project under the wicket home and walked with up/down', () => {
    const file = historyFile(path.join(dir, '.wicket'), '/some/project');
    expect(file).toBe(path.join(dir, '.wicket', 'history', '-some-project.jsonl'));
    appendHistory(file, 'first');
    appendHistory(file, 'second\nline');
    expect(loadHistory(file)).toEqual(['first', 'second\nline']);
    const h = new HistoryCursor(loadHistory(file));
    expect(h.up('draft')).toBe('second\nline');
    expect(h.up('')).toBe('first');
    expect(h.up('')).toBeUndefined();
    expect(h.down()).toBe('second\nline');
    expect(h.down()).toBe('draft');
    expect(h.down()).toBeUndefined();
  });
});

describe('local settings', () => {
  it('removing a rule keeps every other key; a broken file is never overwritten', () => {
    const file = path.join(dir, '.claude', 'settings.local.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ model: 'opus', permissions: { allow: ['Read', 'Bash(ls)'] } }));
    expect(removeLocalRule(dir, 'allow', 'Bash(ls)')).toMatchObject({ ok: true, changed: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'opus', permissions: { allow: ['Read'] } });
    writeFileSync(file, '{ broken');
    const r = removeLocalRule(dir, 'allow', 'Read');
    expect(r.ok).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('removing a rule from a JSONC file keeps its comments and byte order mark', () => {
    const file = path.join(dir, '.claude', 'settings.local.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '\uFEFF{\n  // mine\n  "permissions": { "allow": ["Read", "Bash(ls)",], },\n}\n');
    expect(removeLocalRule(dir, 'allow', 'Bash(ls)')).toMatchObject({ ok: true, changed: true });
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{\n  // mine\n')).toBe(true);
    expect(text).not.toContain('Bash(ls)');
    expect(text).toContain('"Read"');
  });
});
