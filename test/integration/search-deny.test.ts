import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

let server: FakeAnthropic;
let project: TmpProject;

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({
    files: { 'secrets/key.txt': 'TOKEN=hunter2\n', 'src/a.txt': 'TOKEN=public\n', '.env': 'TOKEN=envfile\n' },
    settings: { permissions: { deny: ['Read(./secrets/**)', 'Read(.env)'] } },
  });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

describe('Read deny rules keep Grep and Glob out', () => {
  it('a project-wide Grep and Glob leave denied files out; a search rooted there is denied', async () => {
    server.script(
      reply().toolUse('Grep', { pattern: 'TOKEN', output_mode: 'content' }).toolUse('Glob', { pattern: '**/*' }),
      reply().toolUse('Grep', { pattern: 'TOKEN', path: 'secrets' }),
      reply().text('done'),
    );
    const r = await runCli(['-p', 'find tokens', '--output-format', 'json'], { cwd: project.dir, home: project.home, baseUrl: server.url });
    expectExit(r, 0);
    const results = (i: number) => (server.requests[i]!.body as any).messages.at(-1).content.map((b: any) => JSON.stringify(b.content));
    const [grep, glob] = results(1);
    expect(grep).toContain('TOKEN=public');
    expect(grep).not.toContain('hunter2');
    expect(grep).not.toContain('envfile');
    expect(glob).toContain('a.txt');
    expect(glob).not.toContain('key.txt');
    const [rooted] = results(2);
    expect(rooted).toContain('denied');
    expect(r.json<any>().permission_denials.map((d: any) => d.tool_name)).toEqual(['Grep']);
  });
});
