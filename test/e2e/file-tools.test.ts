/**
 * The file tools end to end: the built binary in print mode against the fake Messages API, checking
 * the files on disk and the tool results the model received. Needs `npm run build` first.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { makePdf } from '../unit/tools/pdf-fixture.js';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let server: FakeAnthropic;
let project: TmpProject;

beforeEach(async () => {
  server = await startFakeAnthropic();
  project = await makeTmpProject({ files: { 'a.txt': 'alpha\r\nbeta\r\n' } });
});
afterEach(async () => {
  await server.close();
  await project.cleanup();
});

const run = (args: string[]) => runCli(args, { cwd: project.dir, home: project.home, baseUrl: server.url });

interface SeenResult {
  content: string;
  isError: boolean;
}

/** Every tool_result the model was sent, in order, from the last request (which holds the whole conversation). */
function toolResults(): SeenResult[] {
  const messages = (server.messageRequests().at(-1)?.body.messages ?? []) as Anthropic.MessageParam[];
  const out: SeenResult[] = [];
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const block of m.content) {
      if (block.type !== 'tool_result') continue;
      const content =
        typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
      out.push({ content, isError: block.is_error === true });
    }
  }
  return out;
}

describe('file tools through the binary', () => {
  it('read → edit → edit again → write, keeping CRLF', async () => {
    const a = project.path('a.txt');
    server.script(
      reply().toolUse('Read', { file_path: a }),
      reply().toolUse('Edit', { file_path: a, old_string: 'alpha', new_string: 'ALPHA' }),
      reply().toolUse('Edit', { file_path: a, old_string: 'beta', new_string: 'BETA\ngamma' }),
      reply().toolUse('Write', { file_path: project.path('sub/new.txt'), content: 'brand new\n' }),
      reply().toolUse('Write', { file_path: a, content: 'rewritten\n' }),
      reply().text('all done'),
    );
    const r = expectExit(await run(['-p', 'change the files', '--permission-mode', 'acceptEdits']), 0);
    expect(r.stdout).toBe('all done\n');
    expect(await project.read('sub/new.txt')).toBe('brand new\n');
    expect(await project.read('a.txt')).toBe('rewritten\r\n');
    const seen = toolResults();
    expect(seen.map((s) => s.isError)).toEqual([false, false, false, false, false]);
    expect(seen[0]!.content).toBe(`File: ${a} (lines 1-2 of 2)\n1\talpha\n2\tbeta`);
    expect(seen[1]!.content).toContain('1\tALPHA\n2\tbeta');
    expect(seen[2]!.content).toContain('1\tALPHA\n2\tBETA\n3\tgamma');
    expect(seen[3]!.content).toBe(`File created successfully at: ${project.path('sub/new.txt')} (1 lines)`);
    expect(seen[4]!.content).toBe(`The file ${a} has been overwritten (1 lines).`);
    server.assertNoViolations();
  });

  it('refuses an edit of a file the model never read, and one denied by permission', async () => {
    const a = project.path('a.txt');
    server.script(
      reply().toolUse('Edit', { file_path: a, old_string: 'alpha', new_string: 'x' }),
      reply().toolUse('Read', { file_path: a }),
      reply().toolUse('Edit', { file_path: a, old_string: 'alpha', new_string: 'x' }),
      reply().text('gave up'),
    );
    // Default mode in print mode: edits are not allowed without a rule or a mode.
    const r = expectExit(await run(['-p', 'edit it']), 0);
    expect(r.stdout).toContain('gave up');
    const seen = toolResults();
    expect(seen[0]).toMatchObject({ isError: true, content: expect.stringContaining('File has not been read yet. Read it first before writing to it.') });
    expect(seen[1]!.isError).toBe(false);
    expect(seen[2]!.isError).toBe(true);
    expect(seen[2]!.content).toContain('Permission to use Edit was denied');
    expect(seen[2]!.content).toContain('Edit(a.txt)');
    expect(await project.read('a.txt')).toBe('alpha\r\nbeta\r\n');
    server.assertNoViolations();
  });

  it('reads a PDF (pdf-parse loaded on demand), an image and a notebook', async () => {
    await project.write('doc.pdf', makePdf(['Page one words', 'Page two words']));
    await project.write('dot.png', PNG_1X1);
    await project.write(
      'n.ipynb',
      JSON.stringify({
        cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: 'print(42)', outputs: [], execution_count: null }],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    server.script(
      reply().toolUse('Read', { file_path: project.path('doc.pdf') }),
      reply().toolUse('Read', { file_path: project.path('dot.png') }),
      reply().toolUse('Read', { file_path: project.path('n.ipynb') }),
      reply().text('read'),
    );
    expectExit(await run(['-p', 'read them']), 0);
    const seen = toolResults();
    expect(seen.map((s) => s.isError)).toEqual([false, false, false]);
    expect(seen[0]!.content).toMatch(/--- Page 1 ---\nPage one words[\s\S]*--- Page 2 ---\nPage two words/);
    expect(seen[1]!.content).toContain('[image]');
    expect(seen[2]!.content).toContain('<cell id="c1" cell_type="code" language="python">\nprint(42)\n</cell>');
    server.assertNoViolations();
  });
});
