/** Claude Code flags for scripts: --replay-user-messages, --disable-slash-commands, -n/--name. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();

describe('script flags', () => {
  it('--replay-user-messages echoes each stream-json user message before its answer', async () => {
    t.api.script(reply().text('one back'), reply().text('two back'));
    const input = ['one', 'two'].map((c) => JSON.stringify({ type: 'user', message: { role: 'user', content: c } })).join('\n');
    const r = await t.run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'], { stdin: `${input}\n` });
    expectExit(r, 0);
    const kinds = r
      .lines<any>()
      .filter((l) => l.type === 'user' || l.type === 'result')
      .map((l) => (l.type === 'user' ? `user:${l.message.content}` : `result:${l.result}`));
    expect(kinds).toEqual(['user:one', 'result:one back', 'user:two', 'result:two back']);
  });

  it('--disable-slash-commands sends /name as it is typed, and offers no Skill tool', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'commands', 'hello.md'), 'Expanded hello\n');
    mkdirSync(path.join(t.project.dir, '.claude', 'skills', 'pdf'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'skills', 'pdf', 'SKILL.md'), '---\ndescription: PDFs\n---\nbody\n');
    t.api.script(reply().text('a'), reply().text('b'));
    expectExit(await t.run(['-p', '/hello']), 0);
    expectExit(await t.run(['-p', '/hello', '--disable-slash-commands']), 0);
    const [on, off] = t.api.messageRequests().map((q) => q.body as { tools: Array<{ name: string }>; messages: unknown[] });
    expect(JSON.stringify(on!.messages[0])).toContain('Expanded hello');
    expect(on!.tools.map((x) => x.name)).toContain('Skill');
    expect(JSON.stringify(off!.messages[0])).toContain('"/hello"');
    expect(off!.tools.map((x) => x.name)).not.toContain('Skill');
  });

  it('-n names the session in its file', async () => {
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hi', '-n', 'release prep']), 0);
    const dir = path.join(t.project.home, '.wicket', 'sessions');
    const slug = readdirSync(dir)[0]!;
    const text = readFileSync(path.join(dir, slug, readdirSync(path.join(dir, slug))[0]!), 'utf8');
    expect(text).toContain('"type":"custom-title","customTitle":"release prep"');
  });
});
