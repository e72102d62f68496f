/** A custom command's inline shell (`!`cmd``) in print mode, through the built binary. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandInlineShell } from '../../src/commands/inline-shell.js';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

let server: FakeAnthropic;
let project: TmpProject;

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({ files: { 'notes.txt': 'in the project\n' } });
  mkdirSync(path.join(project.dir, '.claude', 'commands'), { recursive: true });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const command = (name: string, text: string) => writeFileSync(path.join(project.dir, '.claude', 'commands', `${name}.md`), text);
const run = (prompt: string) => runCli(['-p', prompt], { cwd: project.dir, home: project.home, baseUrl: server.url });
const firstPrompt = () => JSON.stringify((server.messageRequests()[0]!.body as any).messages[0].content);

describe('inline shell in custom commands', () => {
  it('runs each command allowed by allowed-tools, or by the gates as they are, and puts its output in place', async () => {
    command(
      'ctx',
      '---\nallowed-tools: Bash(echo:*), Bash(printf:*)\n---\nOne: !`echo first`\nTwo: !`printf "%s-%s" a b`\nFile: !`cat notes.txt`\nAsked: $ARGUMENTS\n',
    );
    server.script(reply().text('ok'));
    const r = await run('/ctx go on');
    expectExit(r, 0);
    expect(firstPrompt()).toContain('One: first\\nTwo: a-b\\nFile: in the project\\nAsked: go on');
  });

  it('sends nothing when the gates refuse one, and says why and how to allow it', async () => {
    command('peek', 'Host: !`cat /etc/hostname`\n');
    const r = await run('/peek');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('inline shell !`cat /etc/hostname` did not run: it needs permission');
    expect(r.stderr).toContain('allowed-tools: Bash(cat:*)');
    expect(server.messageRequests()).toHaveLength(0);
  });

  it("allowed-tools also allows the model's own calls in the run the command starts", async () => {
    command('mk', '---\nallowed-tools: Bash(touch:*)\n---\nMake the marker file.\n');
    server.script(
      reply().toolUse('Bash', { command: 'touch made-by-command' }),
      reply().text('made'),
      reply().toolUse('Bash', { command: 'touch made-by-prompt' }),
      reply().text('tried'),
    );
    const granted = await run('/mk');
    expectExit(granted, 0);
    expect(existsSync(path.join(project.dir, 'made-by-command'))).toBe(true);
    const plain = await run('make another marker');
    expectExit(plain, 0);
    expect(existsSync(path.join(project.dir, 'made-by-prompt'))).toBe(false); // print mode cannot ask: denied
  });

  it('a deny rule in the settings beats the command file', async () => {
    writeFileSync(path.join(project.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(echo:*)'] } }));
    command('ctx', '---\nallowed-tools: Bash(echo:*)\n---\nSays: !`echo hi`\n');
    const r = await run('/ctx');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('did not run');
    expect(server.messageRequests()).toHaveLength(0);
  });
});

describe('expandInlineShell', () => {
  it('replaces each command in order, trims trailing space, and stops at the first refusal', async () => {
    const seen: string[] = [];
    const ok = await expandInlineShell('a !`x 1` b !`y`!', async (c) => (seen.push(c), { ok: true, output: `<${c}>\n\n` }));
    expect(ok).toEqual({ ok: true, text: 'a <x 1> b <y>!' });
    expect(seen).toEqual(['x 1', 'y']);
    const no = await expandInlineShell('!`one` !`two` !`three`', async (c) => (c === 'two' ? { ok: false, reason: 'no' } : { ok: true, output: c }));
    expect(no).toEqual({ ok: false, message: expect.stringContaining('!`two` did not run: no') });
    expect(await expandInlineShell('no shell ! here `x`', async () => ({ ok: false, reason: 'never' }))).toEqual({ ok: true, text: 'no shell ! here `x`' });
  });
});
