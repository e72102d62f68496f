/**
 * Language servers end to end: the built binary in print mode with the real typescript-language-server
 * (a dev dependency, put on the PATH), a fake server that crashes and one that is not installed. What
 * matters is what the model received: the new type error in the result of the Edit that caused it,
 * nothing after the Edit that fixes it, places across files from the LSP tool, and edits that still
 * work when a server is broken. Needs `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { expectExit, runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';

const BIN = path.resolve('node_modules/.bin');
const SLOW = 180_000;

let server: FakeAnthropic | undefined;
let project: TmpProject | undefined;
afterEach(async () => {
  await server?.close();
  await project?.cleanup();
});

/** Every tool_result the model was sent, in order, from the last request. */
function toolResults(s: FakeAnthropic): Array<{ content: string; isError: boolean }> {
  const messages = (s.messageRequests().at(-1)?.body.messages ?? []) as Anthropic.MessageParam[];
  const out: Array<{ content: string; isError: boolean }> = [];
  for (const m of messages) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const content = typeof b.content === 'string' ? b.content : (b.content ?? []).map((x) => (x.type === 'text' ? x.text : '')).join('\n');
      out.push({ content, isError: b.is_error === true });
    }
  }
  return out;
}

const MAIN = "import { add } from './math';\nexport const total: number = add(1, 2);\n";

describe('language servers through the binary', () => {
  it(
    'an Edit that breaks the types gets the error in its result, the fixing Edit none; LSP finds definition and references across files',
    async () => {
      server = await startFakeAnthropic();
      project = await makeTmpProject({
        files: {
          'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler' } }),
          'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
          'src/main.ts': MAIN,
        },
      });
      // The project's own TypeScript (hard links: instant), so tsserver watches this small project's node_modules.
      execFileSync('mkdir', ['-p', project.path('node_modules')]);
      execFileSync('cp', ['-al', path.resolve('node_modules/typescript'), project.path('node_modules/typescript')]);
      const main = project.path('src/main.ts');
      const math = project.path('src/math.ts');
      server.script(
        reply().toolUse('Read', { file_path: main }),
        reply().toolUse('Edit', { file_path: main, old_string: 'total: number', new_string: 'total: string' }),
        reply().toolUse('Edit', { file_path: main, old_string: 'total: string', new_string: 'total: number' }),
        reply().toolUse('LSP', { operation: 'goToDefinition', filePath: main, line: 2, character: 30 }),
        reply().toolUse('LSP', { operation: 'findReferences', filePath: math, line: 1, character: 17 }),
        reply().toolUse('LSP', { operation: 'hover', filePath: main, line: 2, character: 30 }),
        reply().text('done'),
      );
      const r = expectExit(
        await runCli(['-p', 'fix it', '--permission-mode', 'acceptEdits'], {
          cwd: project.dir,
          home: project.home,
          baseUrl: server.url,
          env: { WICKET_LSP: undefined, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '90000' },
          timeoutMs: SLOW,
        }),
        0,
      );
      expect(r.stdout).toBe('done\n');
      const seen = toolResults(server);
      expect(seen.map((s) => s.isError)).toEqual([false, false, false, false, false, false]);
      expect(seen[1]!.content).toContain('<new-diagnostics>');
      expect(seen[1]!.content).toContain("src/main.ts:2:14: Type 'number' is not assignable to type 'string'.");
      expect(seen[2]!.content).not.toContain('new-diagnostics');
      expect(seen[3]!.content).toMatch(/^src\/math\.ts:1:17/);
      expect(seen[4]!.content.split('\n').map((l) => l.split('  ')[0])).toEqual(
        expect.arrayContaining(['src/math.ts:1:17', 'src/main.ts:1:10', 'src/main.ts:2:30']),
      );
      expect(seen[5]!.content).toContain('add(a: number, b: number): number');
      expect(await project.read('src/main.ts')).toBe(MAIN);
    },
    SLOW,
  );

  it(
    'a constant in a Read-denied file reaches the model neither by hover nor in a diagnostic that quotes its type',
    async () => {
      server = await startFakeAnthropic();
      project = await makeTmpProject({
        files: {
          'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler' } }),
          'secrets/keys.ts': 'export const KEY = "SECRET_CONTENT_lsp";\n',
          'src/a.ts': "import { KEY } from '../secrets/keys';\nexport const k = KEY;\n",
        },
        settings: { permissions: { deny: ['Read(./secrets/**)'] } },
      });
      execFileSync('mkdir', ['-p', project.path('node_modules')]);
      execFileSync('cp', ['-al', path.resolve('node_modules/typescript'), project.path('node_modules/typescript')]);
      const a = project.path('src/a.ts');
      server.script(
        reply().toolUse('Read', { file_path: a }),
        reply().toolUse('Edit', { file_path: a, old_string: 'export const k = KEY;', new_string: 'export const k: 1 = KEY;' }),
        reply().toolUse('LSP', { operation: 'diagnostics', filePath: a, line: 1, character: 1 }),
        reply().toolUse('LSP', { operation: 'hover', filePath: a, line: 2, character: 14 }),
        reply().toolUse('LSP', { operation: 'hover', filePath: a, line: 2, character: 21 }),
        reply().text('done'),
      );
      expectExit(
        await runCli(['-p', 'look', '--dangerously-skip-permissions'], {
          cwd: project.dir,
          home: project.home,
          baseUrl: server.url,
          env: { WICKET_LSP: undefined, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '90000' },
          timeoutMs: SLOW,
        }),
        0,
      );
      const seen = toolResults(server);
      expect(seen[1]!.content).toContain(`src/a.ts:2:14: Type '"…"' is not assignable to type '…'.`);
      expect(JSON.stringify(server.requests.map((q) => q.body))).not.toContain('SECRET_CONTENT');
    },
    SLOW,
  );

  it(
    'Python through pyright: the Edit that breaks the types hears of it, the fixing Edit does not',
    async () => {
      server = await startFakeAnthropic();
      project = await makeTmpProject({ files: { 'app.py': 'def add(a: int, b: int) -> int:\n    return a + b\n\ntotal: int = add(1, 2)\n' } });
      const app = project.path('app.py');
      server.script(
        reply().toolUse('Read', { file_path: app }),
        reply().toolUse('Edit', { file_path: app, old_string: 'total: int', new_string: 'total: str' }),
        reply().toolUse('Edit', { file_path: app, old_string: 'total: str', new_string: 'total: int' }),
        reply().text('done'),
      );
      const r = expectExit(
        await runCli(['-p', 'edit', '--permission-mode', 'acceptEdits'], {
          cwd: project.dir,
          home: project.home,
          baseUrl: server.url,
          env: { WICKET_LSP: undefined, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '60000' },
          timeoutMs: SLOW,
        }),
        0,
      );
      expect(r.stdout).toBe('done\n');
      const seen = toolResults(server);
      expect(seen.map((s) => s.isError)).toEqual([false, false, false]);
      expect(seen[1]!.content).toContain('<new-diagnostics>');
      expect(seen[1]!.content).toMatch(/app\.py:4:\d+: .*"int".*"str"/);
      expect(seen[2]!.content).not.toContain('new-diagnostics');
    },
    SLOW,
  );

  it(
    'a server that crashes and one that is not installed are warnings once; the edits still work and the LSP tool says why',
    async () => {
      server = await startFakeAnthropic();
      // Answers initialize, then dies when told of a document.
      const crashy = [
        "let buf = '';",
        "process.stdin.on('data', (d) => {",
        '  buf += d;',
        '  const m = /"id":(\\d+),"method":"initialize"/.exec(buf) || /"method":"initialize","params".*?"id":(\\d+)/.exec(buf);',
        "  if (m && !globalThis.sent) { globalThis.sent = true; const body = JSON.stringify({ jsonrpc: '2.0', id: Number(m[1]), result: { capabilities: {} } });",
        "    process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body); }",
        "  if (buf.includes('textDocument/didOpen')) process.exit(3);",
        '});',
      ].join('\n');
      project = await makeTmpProject({
        files: {
          'crashy.cjs': crashy,
          '.lsp.json': JSON.stringify({
            crashy: { command: process.execPath, args: ['crashy.cjs'], extensionToLanguage: { '.crash': 'crash' } },
            ghost: { command: 'no-such-language-server-for-wicket', extensionToLanguage: { '.ghost': 'ghost' } },
          }),
          'a.crash': 'one\n',
          'b.ghost': 'two\n',
        },
      });
      server.script(
        reply().toolUse('Read', { file_path: project.path('a.crash') }),
        reply().toolUse('Edit', { file_path: project.path('a.crash'), old_string: 'one', new_string: 'ONE' }),
        reply().toolUse('Read', { file_path: project.path('b.ghost') }),
        reply().toolUse('Edit', { file_path: project.path('b.ghost'), old_string: 'two', new_string: 'TWO' }),
        reply().toolUse('LSP', { operation: 'documentSymbol', filePath: project.path('b.ghost') }),
        reply().toolUse('LSP', { operation: 'documentSymbol', filePath: project.path('a.crash') }),
        reply().text('still fine'),
      );
      const r = expectExit(
        await runCli(['-p', 'edit', '--permission-mode', 'acceptEdits'], {
          cwd: project.dir,
          home: project.home,
          baseUrl: server.url,
          env: { WICKET_LSP: undefined, WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '20000' },
          timeoutMs: SLOW,
        }),
        0,
      );
      expect(r.stdout).toBe('still fine\n');
      expect(await project.read('a.crash')).toBe('ONE\n');
      expect(await project.read('b.ghost')).toBe('TWO\n');
      const seen = toolResults(server);
      expect(seen.slice(0, 4).map((s) => s.isError)).toEqual([false, false, false, false]);
      expect(seen[4]).toMatchObject({ isError: true });
      expect(seen[4]!.content).toContain('no-such-language-server-for-wicket is not installed');
      expect(seen[5]).toMatchObject({ isError: true });
      expect(seen[5]!.content).toContain('"crashy" is not available');
      // Each is said once on stderr, however many calls touched its files.
      expect(r.stderr.match(/Language server "ghost" unavailable/g)).toHaveLength(1);
      expect(r.stderr.match(/Language server "crashy" .*stopped working/g)).toHaveLength(1);
    },
    SLOW,
  );
});
