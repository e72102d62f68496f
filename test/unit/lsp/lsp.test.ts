import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DiagnosticsReport, LspAccess } from '../../../src/base/lsp.js';
import { defineTool } from '../../../src/base/tool.js';
import { executeCall, prepareCall, type RunnerEnv } from '../../../src/core/tool-runner.js';
import { DEFAULT_SERVERS, projectLspServers, serverFor } from '../../../src/lsp/config.js';
import { diagnosticsNote, diagnosticsReport, MAX_DIAGNOSTIC_LINES, newErrors } from '../../../src/lsp/new-errors.js';
import { diagnosticsTimeoutMs, lspEnabled } from '../../../src/lsp/session.js';
import { parseLspServers } from '../../../src/plugins/lsp.js';
import { formatAnswer } from '../../../src/tools/lsp/format.js';
import { answerQuery } from '../../../src/lsp/queries.js';
import { redactDiagnostic, redactHover } from '../../../src/permissions/redact-literals.js';
import { lspServerLines } from '../../../src/ui/commands/lsp.js';
import { fakeEnv } from '../core/fake-tools.js';
import { lspTool } from '../../../src/tools/lsp/index.js';
import { emptyRules } from '../../../src/base/permission-types.js';
import { parseRule } from '../../../src/base/rule-parse.js';

const diag = (line: number, message: string, severity = 1, code?: number) => ({
  range: { start: { line, character: 4 }, end: { line, character: 9 } },
  severity,
  message,
  ...(code !== undefined ? { code } : {}),
});

describe('new errors after a change', () => {
  it('keeps only errors not there before, matched by message and code whatever their line; a second copy of an old one is new', () => {
    const before = [diag(1, 'old error', 1, 7), diag(2, 'a warning', 2)];
    const after = [diag(5, 'old error', 1, 7), diag(6, 'old error', 1, 7), diag(3, 'fresh error', 1, 9), diag(4, 'new warning', 2)];
    expect(newErrors(before, after).map((d) => `${d.range.start.line}:${d.message}`)).toEqual(['6:old error', '3:fresh error']);
    expect(newErrors(undefined, [diag(0, 'x')])).toHaveLength(1);
  });

  it('reports path:line:col lines relative to the project, bounded, with the whole count', () => {
    const errors = Array.from({ length: 40 }, (_, i) => diag(i, `e${i}\nsecond line`, 1, 2322));
    const report = diagnosticsReport([{ file: '/p/src/a.ts', errors }], '/p')!;
    expect(report.count).toBe(40);
    expect(report.lines).toHaveLength(MAX_DIAGNOSTIC_LINES);
    expect(report.lines[0]).toBe('src/a.ts:1:5: e0 [2322]');
    expect(diagnosticsReport([{ file: '/elsewhere/b.ts', errors: [diag(0, 'x')] }], '/p')!.lines).toEqual(['/elsewhere/b.ts:1:5: x']);
    expect(diagnosticsReport([{ file: '/p/a.ts', errors: [] }], '/p')).toBeUndefined();
    const note = diagnosticsNote(report);
    expect(note).toMatch(/^<new-diagnostics>\nThe language server reports 40 new errors/);
    expect(note).toContain('… and 10 more\n</new-diagnostics>');
  });
});

describe('server configuration', () => {
  it('parses Claude Code’s lspServers shape: variables expanded, extensions normalised, bad entries named, others kept', () => {
    const parsed = parseLspServers(
      {
        lspServers: {
          go: { command: '${ROOT}/bin/gopls', args: ['serve', '${ROOT}'], extensionToLanguage: { go: 'go' }, env: { A: '${ROOT}' }, startupTimeout: 5000 },
          broken: { args: ['x'] },
          tcp: { command: 'x', transport: 'socket', extensionToLanguage: { '.x': 'x' } },
          unset: { command: '${NOPE}', extensionToLanguage: { '.n': 'n' } },
        },
      },
      { source: 'plugin:p', prefix: 'plugin:p:', env: { ROOT: '/plug' } },
    );
    expect(parsed.servers).toEqual([
      {
        name: 'plugin:p:go',
        command: '/plug/bin/gopls',
        args: ['serve', '/plug'],
        extensionToLanguage: { '.go': 'go' },
        env: { A: '/plug' },
        startupTimeout: 5000,
        source: 'plugin:p',
      },
    ]);
    expect(parsed.errors).toEqual([
      'language server "broken": "command" must be a non-empty string',
      'language server "tcp": transport "socket" is not supported (only stdio)',
      'language server "unset": environment variable not set: NOPE',
    ]);
  });

  it('the project’s .lsp.json comes before the defaults; a file with a bad shape is a problem, not a crash', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lsp-config-'));
    try {
      writeFileSync(path.join(dir, '.lsp.json'), JSON.stringify({ deno: { command: 'deno', args: ['lsp'], extensionToLanguage: { '.ts': 'typescript' } } }));
      const own = projectLspServers(dir, {});
      expect(own.errors).toEqual([]);
      expect(serverFor([...own.servers, ...DEFAULT_SERVERS], '/x/a.ts')?.config.name).toBe('deno');
      expect(serverFor(DEFAULT_SERVERS, '/x/a.TSX')).toMatchObject({ config: { name: 'typescript' }, languageId: 'typescriptreact' });
      expect(serverFor(DEFAULT_SERVERS, '/x/a.py')?.config.command).toBe('pyright-langserver');
      expect(serverFor(DEFAULT_SERVERS, '/x/Makefile')).toBeUndefined();
      writeFileSync(path.join(dir, '.lsp.json'), '[1, 2');
      expect(projectLspServers(dir, {}).errors[0]).toContain('.lsp.json');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('WICKET_LSP=0 turns servers off; the wait comes from the variable, then settings, else 1500 ms', () => {
    expect(lspEnabled({})).toBe(true);
    expect(lspEnabled({ WICKET_LSP: '0' })).toBe(false);
    expect(lspEnabled({ WICKET_LSP: 'off' })).toBe(false);
    expect(diagnosticsTimeoutMs({}, {})).toBe(1500);
    expect(diagnosticsTimeoutMs({}, { lspDiagnosticsTimeoutMs: 300 })).toBe(300);
    expect(diagnosticsTimeoutMs({ WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: '50' }, { lspDiagnosticsTimeoutMs: 300 })).toBe(50);
    expect(diagnosticsTimeoutMs({ WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS: 'soon' }, {})).toBe(1500);
  });
});

/** A language-server stand-in that records what the runner asked of it. */
function fakeLsp(report?: DiagnosticsReport): LspAccess & { log: string[] } {
  const log: string[] = [];
  let warnings = ['Language server "x" unavailable: x is not installed'];
  return {
    log,
    touched: (f) => void log.push(`touched ${f}`),
    beforeChange: async (files) => void log.push(`before ${files.join(',')}`),
    afterChange: async (files) => (log.push(`after ${files.join(',')}`), report),
    serves: (f) => f.endsWith('.ts'),
    changedOpenFiles: async () => ['/tmp/src/open.ts'],
    query: async () => ({ kind: 'text', text: '' }),
    servers: () => [],
    takeWarnings: () => {
      const w = warnings;
      warnings = [];
      return w;
    },
    stop: async () => {},
  };
}

function writer(name: string, fail = false) {
  return defineTool<{ file: string }, string>({
    name,
    description: () => name,
    inputSchema: z.strictObject({ file: z.string() }),
    isReadOnly: () => name === 'Read',
    isConcurrencySafe: () => false,
    permissionPaths: (input) => ({ access: name === 'Read' ? 'read' : 'write', paths: [input.file] }),
    checkPermissions: async () => ({ behavior: 'allow' }),
    async *call(input) {
      return `wrote ${input.file}`;
    },
    toModelResult: (out) => ({ content: out, ...(fail ? { isError: true } : {}) }),
    summary: () => name,
  });
}

async function runWith(env: RunnerEnv, name: string, input: unknown) {
  const p = prepareCall({ id: 't1', name, input }, env);
  if (p.kind === 'done') return p.outcome;
  return executeCall(p, env, new AbortController().signal);
}

describe('the gate runner around a change', () => {
  it('a written file served by a language server gets its new errors appended and counted; warnings reach the session once', async () => {
    const lsp = fakeLsp({ lines: ['src/a.ts:2:14: Type error [2322]'], count: 1 });
    const { env, events } = fakeEnv({ tools: [writer('Edit'), writer('Write', true), writer('Read')] });
    env.base = { ...env.base, lsp };
    const out = await runWith(env, 'Edit', { file: '/tmp/src/a.ts' });
    expect(out.result.content).toBe(
      'wrote /tmp/src/a.ts\n\n<new-diagnostics>\nThe language server reports a new error in the changed file(s):\nsrc/a.ts:2:14: Type error [2322]\n</new-diagnostics>',
    );
    expect(out.display).toMatchObject({ diagnostics: 1 });
    expect(lsp.log).toEqual(['before /tmp/src/a.ts', 'after /tmp/src/a.ts']);
    // A file no server serves, and a failed call, ask nothing after the change.
    await runWith(env, 'Edit', { file: '/tmp/notes.txt' });
    const failed = await runWith(env, 'Write', { file: '/tmp/src/b.ts' });
    expect(failed.result.content).toBe('wrote /tmp/src/b.ts');
    await runWith(env, 'Read', { file: '/tmp/src/c.ts' });
    expect(lsp.log.slice(2)).toEqual(['before /tmp/src/b.ts', 'touched /tmp/src/c.ts']);
    expect(events.filter((e) => e.type === 'warning')).toEqual([{ type: 'warning', message: 'Language server "x" unavailable: x is not installed' }]);
  });

  it('a command that is not read-only: the open files it changed are checked after it', async () => {
    const lsp = fakeLsp({ lines: ['src/open.ts:1:1: broken'], count: 1 });
    const { env } = fakeEnv({ tools: [writer('Bash')] });
    env.base = { ...env.base, lsp };
    const out = await runWith(env, 'Bash', { file: 'make build' });
    expect(out.result.content).toContain('src/open.ts:1:1: broken');
    expect(lsp.log).toEqual(['after /tmp/src/open.ts']);
  });

  it('no new errors: the result is the tool’s own', async () => {
    const { env } = fakeEnv({ tools: [writer('Edit')] });
    env.base = { ...env.base, lsp: fakeLsp(undefined) };
    const out = await runWith(env, 'Edit', { file: '/tmp/a.ts' });
    expect(out.result.content).toBe('wrote /tmp/a.ts');
    expect(out.display).toMatchObject({ diagnostics: 0 });
  });
});

describe('the LSP tool’s answer and /lsp', () => {
  it('passes the gates: a Read deny rule on its file refuses it before any server is asked', async () => {
    const rules = emptyRules();
    rules.deny.push(parseRule('Read(//tmp/secret.ts)', 'projectSettings'));
    const { env } = fakeEnv({ tools: [lspTool], rules });
    const lsp = fakeLsp();
    let asked = 0;
    env.base = { ...env.base, lsp: { ...lsp, query: async () => (asked++, { kind: 'text', text: 'secret' }) } };
    const out = await runWith(env, 'LSP', { operation: 'hover', filePath: '/tmp/secret.ts', line: 1, character: 1 });
    expect(out.result.isError).toBe(true);
    expect(String(out.result.content)).toContain('Read(//tmp/secret.ts)');
    expect(asked).toBe(0);
    expect(lspTool.isReadOnly({ operation: 'hover', filePath: 'x' })).toBe(true);
    expect(lspTool.isConcurrencySafe({ operation: 'hover', filePath: 'x' })).toBe(true);
  });

  it('places are path:line:col lines relative to the working folder; those in hidden files are counted, never named', () => {
    const out = formatAnswer(
      {
        kind: 'locations',
        items: [
          { path: '/p/src/a.ts', line: 3, character: 7, label: 'function add' },
          { path: '/p/.env.ts', line: 1, character: 1 },
          { path: '/q/b.ts', line: 9, character: 2 },
        ],
      },
      { cwd: '/p', hidden: (f) => f.endsWith('.env.ts') },
    );
    expect(out).toEqual({ text: 'src/a.ts:3:7  function add\n/q/b.ts:9:2\n(1 result in files a permission rule hides is left out)', results: 2 });
    expect(formatAnswer({ kind: 'unavailable', reason: 'no server' }, { cwd: '/p' })).toEqual({ text: 'no server', results: 0, unavailable: true });
  });

  it('a hover of a symbol declared in a hidden file is left out: it would show the declaration (a secret constant’s value)', async () => {
    const hidden = (f: string) => f.startsWith('/p/secrets/');
    const hover = (definedIn: string[] | null) => formatAnswer({ kind: 'text', text: 'const KEY: "sk-live-123"', definedIn }, { cwd: '/p', hidden });
    expect(hover(['/p/secrets/keys.ts']).text).toBe('Hover left out: the symbol is declared in a file a permission rule hides.');
    expect(hover(null).text).toMatch(/^Hover left out: the server could not say where/);
    // Declared elsewhere: shown, its literal values left out (the next test).
    expect(hover(['/p/src/a.ts']).text).toBe('const KEY: "…"');
    expect(hover([]).text).toBe('const KEY: "…"');
    expect(formatAnswer({ kind: 'text', text: 'x', definedIn: null }, { cwd: '/p' }).text).toBe('x');
    // The query asks the server where the symbol is declared, beside its hover.
    const asked: string[] = [];
    const server = {
      request: async (method: string) => {
        asked.push(method);
        if (method === 'textDocument/hover') return { contents: { kind: 'markdown', value: 'const KEY: "sk-live-123"' } };
        return [{ uri: 'file:///p/secrets/keys.ts', range: { start: { line: 0, character: 13 }, end: { line: 0, character: 16 } } }];
      },
    } as unknown as Parameters<typeof answerQuery>[0];
    const answer = await answerQuery(
      server,
      { operation: 'hover', file: '/p/src/a.ts', line: 1, character: 1 },
      { uri: 'file:///p/src/a.ts', version: 1 },
      new AbortController().signal,
      async () => [],
    );
    expect(asked).toEqual(['textDocument/hover', 'textDocument/definition']);
    expect(answer).toEqual({ kind: 'text', text: 'const KEY: "sk-live-123"', definedIn: ['/p/secrets/keys.ts'] });
    expect(formatAnswer(answer, { cwd: '/p', hidden }).text).not.toContain('sk-live');
  });

  it('while a Read deny rule holds, literal values in diagnostics and hovers are left out: a type can quote a hidden constant', () => {
    const hidden = (f: string) => f.startsWith('/p/secrets/');
    const diag = (label: string) =>
      formatAnswer({ kind: 'locations', diagnostics: true, items: [{ path: '/p/src/a.ts', line: 2, character: 14, label }] }, { cwd: '/p', hidden }).text;
    expect(diag(`error: Type '"sk-live-123"' is not assignable to type '1'. [2322]`)).toBe(
      `src/a.ts:2:14  error: Type '"…"' is not assignable to type '…'. [2322]`,
    );
    expect(diag(`error: Type 'string' is not assignable to type 'number'. [2322]`)).toBe(
      `src/a.ts:2:14  error: Type 'string' is not assignable to type 'number'. [2322]`,
    );
    expect(redactDiagnostic(`Property 'x' does not exist on type '{ a: "sk-1"; b: 4242; }'.`)).toBe(
      `Property 'x' does not exist on type '{ a: "…"; b: 4242; }'.`,
    );
    expect(redactDiagnostic(`"Literal['sk-1', 4242]" is not assignable to "int"`)).toBe(`"Literal['…', …]" is not assignable to "int"`);
    expect(redactDiagnostic("Type '`sk-${string}`' is not assignable to type 'never'.")).toBe("Type '`…`' is not assignable to type 'never'.");
    const hover = formatAnswer({ kind: 'text', text: '```typescript\nconst k: "sk-live-123"\n```', definedIn: ['/p/src/a.ts'] }, { cwd: '/p', hidden }).text;
    expect(hover).toBe('```typescript\nconst k: "…"\n```');
    expect(redactHover('const PIN: 4242')).toBe('const PIN: …');
    expect(redactHover('function add(a: number, b: number): number')).toBe('function add(a: number, b: number): number');
    // Without a Read deny rule nothing is left out.
    expect(formatAnswer({ kind: 'text', text: 'const k: "v"', definedIn: [] }, { cwd: '/p' }).text).toBe('const k: "v"');
  });

  it('/lsp lists each server with its source, files and state', () => {
    expect(
      lspServerLines([
        { name: 'typescript', command: 'typescript-language-server', source: 'default', extensions: ['.ts'], folder: '/p', status: 'running' },
        { name: 'go', command: 'gopls', source: 'default', extensions: ['.go'], status: 'missing', error: 'gopls is not installed' },
      ]),
    ).toEqual([
      '✓ typescript (default) typescript-language-server · .ts · running in /p',
      '✗ go (default) gopls · .go · not installed: gopls is not installed',
    ]);
  });
});
