/**
 * Glob and Grep end to end: the built binary in print mode against the fake Messages API, checking
 * the tool results the model received. Needs `npm run build` first.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

let server: FakeAnthropic;
let project: TmpProject;

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({
    git: true,
    files: {
      '.gitignore': 'dist/\n',
      'src/a.ts': 'export const needle = 1;\n',
      'src/b.ts': 'import { needle } from "./a";\nconsole.log(needle);\n',
      'dist/a.js': 'var needle = 1;\n',
      'secrets/key.ts': 'export const needle = "secret";\n',
      'README.md': 'No match here.\n',
    },
  });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[]) => runCli(args, { cwd: project.dir, home: project.home, baseUrl: server.url });

/** Every tool_result the model was sent, in order, from the last request. */
function toolResults(): Array<{ content: string; isError: boolean }> {
  const messages = (server.messageRequests().at(-1)?.body.messages ?? []) as Anthropic.MessageParam[];
  const out: Array<{ content: string; isError: boolean }> = [];
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const block of m.content) {
      if (block.type !== 'tool_result') continue;
      const content = typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      out.push({ content, isError: block.is_error === true });
    }
  }
  return out;
}

describe('Glob and Grep through the binary', () => {
  it('run side by side in one message, inside the workspace without asking', async () => {
    server.script(
      reply()
        .toolUse('Glob', { pattern: '**/*.ts' })
        .toolUse('Grep', { pattern: 'needle', output_mode: 'content' })
        .toolUse('Grep', { pattern: 'needle', output_mode: 'count', glob: 'src/**' }),
      reply().text('found them'),
    );
    const r = expectExit(await run(['-p', 'find the needle']), 0);
    expect(r.stdout).toBe('found them\n');
    const [glob, content, count] = toolResults();
    expect(glob!.isError).toBe(false);
    expect(glob!.content.split('\n').sort()).toEqual(['secrets/key.ts', 'src/a.ts', 'src/b.ts']);
    expect(content).toEqual({
      isError: false,
      content: [
        'secrets/key.ts:1:export const needle = "secret";',
        'src/a.ts:1:export const needle = 1;',
        'src/b.ts:1:import { needle } from "./a";',
        'src/b.ts:2:console.log(needle);',
      ].join('\n'),
    });
    expect(count!.content).toBe('src/a.ts:1\nsrc/b.ts:2\nFound 3 matching lines in 2 files.');
    server.assertNoViolations();
  });

  it('sends an invalid regex and a missing path back as errors the model can act on', async () => {
    server.script(
      reply().toolUse('Grep', { pattern: 'needle(' }),
      reply().toolUse('Grep', { pattern: 'needle', path: 'nope' }),
      reply().toolUse('Glob', { pattern: '*.ts', path: 'src/a.ts' }),
      reply().text('ok'),
    );
    expectExit(await run(['-p', 'search']), 0);
    const [badRegex, missing, notDir] = toolResults();
    expect(badRegex!.isError).toBe(true);
    expect(badRegex!.content).toContain('Invalid regular expression "needle("');
    expect(badRegex!.content).toContain('unclosed group');
    expect(missing!.isError).toBe(true);
    expect(missing!.content).toContain(`Path does not exist: ${project.path('nope')}`);
    expect(notDir!.isError).toBe(true);
    expect(notDir!.content).toContain('Not a directory');
    server.assertNoViolations();
  });

  it('is refused outside the workspace in print mode, and by a Read deny rule', async () => {
    await project.write('.claude/settings.json', JSON.stringify({ permissions: { deny: ['Read(./secrets/**)'] } }));
    server.script(
      reply().toolUse('Grep', { pattern: 'root', path: '/etc' }),
      reply().toolUse('Grep', { pattern: 'needle', path: 'secrets' }),
      reply().toolUse('Glob', { pattern: '*.ts', path: 'secrets' }),
      reply().text('ok'),
    );
    expectExit(await run(['-p', 'search']), 0);
    const [outside, deniedGrep, deniedGlob] = toolResults();
    expect(outside!.isError).toBe(true);
    expect(outside!.content).toContain('outside the workspace');
    expect(deniedGrep!.isError).toBe(true);
    expect(deniedGrep!.content).toContain('Read(./secrets/**)');
    expect(deniedGlob!.isError).toBe(true);
    server.assertNoViolations();
  });

  it('pages with head_limit and offset', async () => {
    await project.write('many.txt', Array.from({ length: 30 }, (_, i) => `hit ${i + 1}`).join('\n'));
    server.script(reply().toolUse('Grep', { pattern: 'hit', path: 'many.txt', output_mode: 'content', head_limit: 10, offset: 10 }), reply().text('ok'));
    expectExit(await run(['-p', 'page']), 0);
    const [page] = toolResults();
    const lines = page!.content.split('\n');
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `${i + 11}:hit ${i + 11}`));
    expect(lines[10]).toBe(
      '(Showing lines 11–20 of 30. Pass offset=20 for the next page, or narrow the search with path, glob, type or a more specific pattern.)',
    );
  });
});
