/** Output styles through the built binary: built-in and custom ones, as Claude Code reads them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOutputStyles } from '../../src/settings/output-styles.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();
type Body = { system: Array<{ text: string }> };
const systemText = (i = 0) => (t.api.messageRequests()[i]!.body as Body).system.map((b) => b.text).join('\n');

function settings(outputStyle: string): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ outputStyle }));
}

describe('output styles', () => {
  it('a built-in style ends the system prompt and keeps the coding instructions; init names it', async () => {
    settings('explanatory');
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'hi', '--output-format', 'stream-json', '--verbose']);
    expectExit(r, 0);
    const text = systemText();
    expect(text.trimEnd().endsWith('not general programming advice.')).toBe(true);
    expect(text).toContain('Read a file before you edit it.');
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ subtype: 'init', output_style: 'Explanatory' });
  });

  it('a project style file replaces the coding instructions unless it keeps them', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'output-styles'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'output-styles', 'pirate.md'), '---\nname: Pirate\ndescription: arr\n---\nSpeak like a pirate.\n');
    writeFileSync(
      path.join(t.project.dir, '.claude', 'output-styles', 'tutor.md'),
      '---\nname: Tutor\nkeep-coding-instructions: true\n---\nExplain each step.\n',
    );
    settings('Pirate');
    t.api.script(reply().text('arr'), reply().text('ok'));
    expectExit(await t.run(['-p', 'hi']), 0);
    expect(systemText(0)).toContain('Speak like a pirate.');
    expect(systemText(0)).not.toContain('Read a file before you edit it.');
    expect(systemText(0)).toContain('You act only through the tools you are given');
    settings('Tutor');
    expectExit(await t.run(['-p', 'hi']), 0);
    expect(systemText(1)).toContain('Read a file before you edit it.');
    expect(systemText(1).trimEnd().endsWith('Explain each step.')).toBe(true);
  });

  it('an unknown style is a warning naming the known ones, and the default prompt is used', async () => {
    settings('Shouty');
    t.api.script(reply().text('ok'));
    const r = await t.run(['-p', 'hi']);
    expectExit(r, 0);
    expect(r.stderr).toContain('outputStyle "Shouty" is not a known output style (known: default, Explanatory, Learning, Concise, Proactive)');
    expect(systemText()).toContain('Read a file before you edit it.');
  });

  it('the user’s styles load too, and a project style of the same name wins', () => {
    const home = path.join(t.project.home, '.claude');
    mkdirSync(path.join(home, 'output-styles'), { recursive: true });
    writeFileSync(path.join(home, 'output-styles', 'mine.md'), '---\nname: Mine\n---\nuser text\n');
    mkdirSync(path.join(t.project.dir, '.claude', 'output-styles'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'output-styles', 'mine.md'), '---\nname: mine\n---\nproject text\n');
    const mine = loadOutputStyles(t.project.dir, home).find((s) => s.name.toLowerCase() === 'mine')!;
    expect(mine).toMatchObject({ prompt: 'project text', source: 'project', keepCodingInstructions: false });
  });
});
