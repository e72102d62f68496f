/**
 * The three questions of `tools check`, asked of real built-in tools and of made-up tools that get
 * one answer wrong: each wrong answer is a FAIL that says why, and nothing of the real project changes.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, lazySchema, type Tool } from '../../../../../src/base/tool.js';
import { checkTools, makeScratch, type Scratch } from '../../../../../src/core/policy/tools-check/run.js';
import { treeHash } from '../../../../../src/core/policy/tools-check/scratch.js';
import { bashTool } from '../../../../../src/tools/bash/index.js';
import { editTool } from '../../../../../src/tools/edit/index.js';
import { readTool } from '../../../../../src/tools/read/index.js';

let project: string;
let scratch: Scratch;

beforeAll(() => {
  project = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-tc-unit-')));
  mkdirSync(path.join(project, 'src'));
  writeFileSync(path.join(project, 'src/a.txt'), 'alpha\n');
  mkdirSync(path.join(project, 'node_modules/x'), { recursive: true });
  scratch = makeScratch(project);
});
afterAll(() => {
  scratch.remove();
  rmSync(project, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH };
const check = (tools: Tool[]) => checkTools({ scratch, env, tools, runMcp: true, samples: { Fake: { input: { name: 'n' } } } });

/** A made-up tool: Read's shape, with the parts a test changes. */
function fake(over: Partial<Tool>): Tool {
  return defineTool({
    name: 'Fake',
    description: () => 'a fake tool',
    inputSchema: lazySchema((z) => z.strictObject({ name: z.string() })),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async checkPermissions() {
      return { behavior: 'allow' };
    },
    async *call() {
      return 'done';
    },
    toModelResult: (o: string) => ({ content: o }),
    summary: () => 'fake',
    ...over,
  } as Tool);
}

describe('tools check on built-in tools', () => {
  it('Read, Edit and Bash answer all three questions, and the real project is untouched', async () => {
    const before = treeHash(project);
    const report = await check([readTool, editTool, bashTool]);
    expect(report.failed).toBe(0);
    const [read, edit, bash] = report.tools;
    expect(read!.nonsense.reason).toMatch(/refused at parse\/validate .*none ran/);
    expect(read!.denied.reason).toContain('Read(//');
    expect(read!.beside.reason).toContain('same result as alone, nothing written');
    expect(edit!.beside.reason).toContain('writes: never batched');
    expect(bash!.denied.reason).toContain('Bash(ls)');
    expect(bash!.beside.reason).toMatch(/read-only: .*; writes: never batched/);
    expect(treeHash(project)).toBe(before);
  });

  it('the scratch copy leaves out node_modules and holds the samples', () => {
    expect(treeHash(scratch.project)).not.toBe(treeHash(project));
    expect(() => realpathSync(path.join(scratch.project, 'node_modules'))).toThrow();
    expect(realpathSync(path.join(scratch.project, 'src/a.txt'))).toBeTruthy();
  });
});

describe('a tool that answers wrong fails, saying why', () => {
  it('a schema the gates do not hold (what the model reads asks for a string; nothing checks it): nonsense runs', async () => {
    const loose = fake({
      inputSchema: lazySchema((z) => z.looseObject({})),
      inputJsonSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
    });
    const [c] = (await check([loose])).tools;
    expect(c!.nonsense).toEqual({ status: 'FAIL', reason: 'null instead of an object: reached execution' });
  });

  it('a read-only tool that writes: the scratch copy changed', async () => {
    const tool = fake({
      async *call() {
        writeFileSync(path.join(scratch.project, 'written.txt'), String(Math.random()));
        return 'done';
      },
    });
    const [c] = (await check([tool])).tools;
    expect(c!.beside).toEqual({ status: 'FAIL', reason: 'says it only reads, but the scratch copy changed' });
  });

  it('a read-only tool whose result depends on the run: results differ', async () => {
    let n = 0;
    const tool = fake({
      async *call() {
        return `run ${++n}`;
      },
    });
    const [c] = (await check([tool])).tools;
    expect(c!.beside).toEqual({ status: 'FAIL', reason: 'run twice at once, the results differ from its result alone' });
  });

  it('a writer that says it is concurrency-safe would be batched', async () => {
    const [c] = (await check([fake({ isReadOnly: () => false })])).tools;
    expect(c!.beside.status).toBe('FAIL');
    expect(c!.beside.reason).toContain('concurrency-safe');
    expect((await check([fake({ isReadOnly: () => false })])).failed).toBe(1);
  });

  it('a validation that throws on odd input: the runner makes it a refusal at the validate gate', async () => {
    const tool = fake({
      async validateInput(input: { name: string }) {
        if (input.name.includes('\0')) throw new Error('cannot handle a null byte');
        return { ok: true };
      },
    });
    const [c] = (await check([tool])).tools;
    // The runner turns a throwing validation into a refusal at the validate gate: the input never runs.
    expect(c!.nonsense.status).toBe('ok');
  });
});
