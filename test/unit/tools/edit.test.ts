import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editTool } from '../../../src/tools/edit/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

// Lets one test fill the disk: write-file-atomic writes a few bytes of its temporary file, then fails.
const writeFailure = vi.hoisted(() => ({ armed: false }));
vi.mock('../../../src/base/fs/write-file-atomic.js', async (importOriginal) => {
  const real = (await importOriginal<typeof import('../../../src/base/fs/write-file-atomic.js')>()).writeFileAtomic;
  const { writeFileSync, unlinkSync } = await import('node:fs');
  const wrapped = async (file: string, data: Buffer, opts?: object) => {
    if (writeFailure.armed) {
      writeFailure.armed = false;
      const tmp = `${file}.partial.tmp`;
      writeFileSync(tmp, Buffer.from(data).subarray(0, 4));
      unlinkSync(tmp);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    return real(file, data, opts);
  };
  return { writeFileAtomic: wrapped };
});

let env: ToolEnv;
beforeEach(() => {
  env = createToolEnv();
});
afterEach(() => env.cleanup());

async function read(rel: string) {
  await runTool(readTool, { file_path: env.file(rel) }, env.nextCall(), env.state);
}

async function edit(input: Record<string, unknown>) {
  return tryRunTool(editTool, input, env.nextCall(), env.state);
}

async function editOk(input: Record<string, unknown>) {
  return runTool(editTool, input, env.nextCall(), env.state);
}

async function refusal(input: Record<string, unknown>): Promise<string> {
  const r = await edit(input);
  if (r.ok) throw new Error('expected a refusal');
  return r.message;
}

describe('Edit: the happy path', () => {
  it('replaces one occurrence, confirms with a snippet and shows a diff', async () => {
    writeFileSync(env.file('a.ts'), 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    await read('a.ts');
    const r = await editOk({ file_path: env.file('a.ts'), old_string: 'const b = 2;', new_string: 'const b = 20;\nconst bb = 21;' });
    expect(readFileSync(env.file('a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    expect(resultText(r.modelResult)).toBe(
      `The file ${env.file('a.ts')} has been updated. A snippet of the result:\n1\tconst a = 1;\n2\tconst b = 20;\n3\tconst bb = 21;\n4\tconst c = 3;`,
    );
    expect(r.display?.summary).toBe('Updated a.ts: 1 replacement, +2 -1');
    expect(r.display?.diff).toBe('--- a/a.ts\n+++ b/a.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;\n');
  });

  it('counts the file as read at its new version, so a second edit needs no re-read', async () => {
    writeFileSync(env.file('a.txt'), 'one two three\n');
    await read('a.txt');
    await editOk({ file_path: env.file('a.txt'), old_string: 'one', new_string: '1' });
    await editOk({ file_path: env.file('a.txt'), old_string: 'two', new_string: '2' });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('1 2 three\n');
    expect(env.state.readState.get(env.file('a.txt'))?.fromWrite).toBe(true);
  });

  it('replaces every occurrence with replace_all', async () => {
    writeFileSync(env.file('a.txt'), 'foo bar foo baz foo\n');
    await read('a.txt');
    const r = await editOk({ file_path: env.file('a.txt'), old_string: 'foo', new_string: 'qux', replace_all: true });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('qux bar qux baz qux\n');
    expect(resultText(r.modelResult)).toContain('(3 replacements; the first is shown)');
  });

  it('creates a missing file and its directories from an empty old_string', async () => {
    const r = await editOk({ file_path: 'new/dir/file.md', old_string: '', new_string: '# Hi\n' });
    expect(readFileSync(env.file('new/dir/file.md'), 'utf8')).toBe('# Hi\n');
    expect(r.display?.diff).toBe('--- /dev/null\n+++ b/new/dir/file.md\n@@ -0,0 +1,1 @@\n+# Hi\n');
    expect(env.state.readState.get(env.file('new/dir/file.md'))).toBeDefined();
  });

  it('fills an existing empty file from an empty old_string', async () => {
    writeFileSync(env.file('empty.txt'), '');
    await read('empty.txt');
    await editOk({ file_path: env.file('empty.txt'), old_string: '', new_string: 'content\n' });
    expect(readFileSync(env.file('empty.txt'), 'utf8')).toBe('content\n');
  });

  it('keeps the mode bits', async () => {
    writeFileSync(env.file('run.sh'), '#!/bin/sh\necho hi\n');
    chmodSync(env.file('run.sh'), 0o751);
    await read('run.sh');
    await editOk({ file_path: env.file('run.sh'), old_string: 'hi', new_string: 'hello' });
    expect(statSync(env.file('run.sh')).mode & 0o777).toBe(0o751);
  });

  it('edits through a symlink and keeps the link', async () => {
    writeFileSync(env.file('target.txt'), 'old\n');
    symlinkSync(env.file('target.txt'), env.file('link.txt'));
    await read('link.txt');
    await editOk({ file_path: env.file('link.txt'), old_string: 'old', new_string: 'new' });
    expect(readFileSync(env.file('target.txt'), 'utf8')).toBe('new\n');
    expect(statSync(env.file('link.txt')).isFile()).toBe(true);
    expect(readdirSync(env.project).sort()).toEqual(['link.txt', 'target.txt']);
  });

  it('accepts a file whose mtime changed but whose content did not', async () => {
    writeFileSync(env.file('a.txt'), 'same\n');
    await read('a.txt');
    utimesSync(env.file('a.txt'), new Date(), new Date(Date.now() + 60_000));
    await editOk({ file_path: env.file('a.txt'), old_string: 'same', new_string: 'changed' });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('changed\n');
  });
});

describe('Edit: refusals', () => {
  it('refuses identical old and new strings', async () => {
    writeFileSync(env.file('a.txt'), 'x\n');
    await read('a.txt');
    expect(await refusal({ file_path: env.file('a.txt'), old_string: 'x', new_string: 'x' })).toBe(
      'No changes to make: old_string and new_string are exactly the same.',
    );
  });

  it('refuses a file that was never read', async () => {
    writeFileSync(env.file('a.txt'), 'x\n');
    expect(await refusal({ file_path: env.file('a.txt'), old_string: 'x', new_string: 'y' })).toBe(
      'File has not been read yet. Read it first before writing to it.',
    );
  });

  it('refuses a file changed by another process since the read, and leaves it as that process wrote it', async () => {
    writeFileSync(env.file('a.txt'), 'original\n');
    await read('a.txt');
    writeFileSync(env.file('a.txt'), 'original, then someone else\n');
    expect(await refusal({ file_path: env.file('a.txt'), old_string: 'original', new_string: 'mine' })).toMatch(/modified since it was read.*Read it again/);
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('original, then someone else\n');
  });

  it('re-checks at call time: a change after validation is refused, nothing written', async () => {
    writeFileSync(env.file('a.txt'), 'v1\n');
    await read('a.txt');
    const input = { file_path: env.file('a.txt'), old_string: 'v1', new_string: 'v2' };
    const ctx = env.nextCall();
    expect(await editTool.validateInput?.(input, ctx)).toEqual({ ok: true });
    writeFileSync(env.file('a.txt'), 'v1 and more\n');
    await expect(async () => {
      for await (const _ of editTool.call(input, ctx)) void _;
    }).rejects.toThrow(/modified since it was read/);
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('v1 and more\n');
  });

  it('says when old_string is missing and points at a near match', async () => {
    writeFileSync(env.file('a.py'), 'def f():\n    return 1\n');
    await read('a.py');
    const msg = await refusal({ file_path: env.file('a.py'), old_string: 'def f():\n\treturn 1', new_string: 'x' });
    expect(msg).toBe(
      `String to replace not found in ${env.file('a.py')}.\nThe closest match, at line 1, differs only in indentation:\ndef f():\n    return 1\n` +
        "Copy old_string exactly as it is in the file (without Read's line-number prefix).",
    );
  });

  it('says how many times old_string occurs without replace_all', async () => {
    writeFileSync(env.file('a.txt'), 'x = 1\nx = 1\nx = 1\n');
    await read('a.txt');
    expect(await refusal({ file_path: env.file('a.txt'), old_string: 'x = 1', new_string: 'x = 2' })).toMatch(
      /^Found 3 matches of old_string .* replace_all is false/,
    );
  });

  it('refuses an empty old_string on an existing non-empty file', async () => {
    writeFileSync(env.file('a.txt'), 'x\n');
    await read('a.txt');
    expect(await refusal({ file_path: env.file('a.txt'), old_string: '', new_string: 'y' })).toMatch(/empty old_string.*not empty.*Write/);
  });

  it('refuses a missing file unless old_string is empty', async () => {
    writeFileSync(env.file('index.ts'), '');
    const msg = await refusal({ file_path: env.file('index.tsx'), old_string: 'a', new_string: 'b' });
    expect(msg).toContain(`File does not exist: ${env.file('index.tsx')}`);
    expect(msg).toContain(`Did you mean ${env.file('index.ts')}?`);
    expect(msg).toContain('pass an empty old_string');
  });

  it('refuses paths inside .git/, notebooks, directories and huge files', async () => {
    mkdirSync(env.file('.git'));
    writeFileSync(env.file('.git/config'), '[core]\n');
    expect(await refusal({ file_path: env.file('.git/config'), old_string: 'core', new_string: 'x' })).toMatch(/inside \.git\//);
    expect(await refusal({ file_path: env.file('n.ipynb'), old_string: 'a', new_string: 'b' })).toMatch(/NotebookEdit/);
    mkdirSync(env.file('dir'));
    expect(await refusal({ file_path: env.file('dir'), old_string: 'a', new_string: 'b' })).toMatch(/is a directory/);
    writeFileSync(env.file('huge.txt'), Buffer.alloc(17 * 1024 * 1024, 'abc\n'));
    expect(await refusal({ file_path: env.file('huge.txt'), old_string: 'abc', new_string: 'x' })).toMatch(/over the 16\.0 MiB limit/);
  });

  it('refuses nonsense input at the schema', async () => {
    expect((await edit({ file_path: 'a', old_string: 'x' })).ok).toBe(false);
    expect((await edit({ file_path: 'a', old_string: 'x', new_string: 'y', replace_all: 'yes' })).ok).toBe(false);
    expect((await edit({ path: 'a', old_string: 'x', new_string: 'y' })).ok).toBe(false);
  });

  it('writes nothing when the call is aborted', async () => {
    writeFileSync(env.file('a.txt'), 'keep\n');
    await read('a.txt');
    const controller = new AbortController();
    controller.abort();
    const r = await tryRunTool(editTool, { file_path: env.file('a.txt'), old_string: 'keep', new_string: 'lose' }, env.nextCall({ signal: controller.signal }));
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/cancelled/) });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('keep\n');
  });

  it('leaves the original intact when the write fails half-way', async () => {
    writeFileSync(env.file('a.txt'), 'precious\n');
    chmodSync(env.file('a.txt'), 0o640);
    await read('a.txt');
    writeFailure.armed = true;
    const r = await edit({ file_path: env.file('a.txt'), old_string: 'precious', new_string: 'replaced' });
    expect(r).toMatchObject({ ok: false, stage: 'call', message: expect.stringMatching(/ENOSPC/) });
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('precious\n');
    expect(statSync(env.file('a.txt')).mode & 0o777).toBe(0o640);
    expect(readdirSync(env.project)).toEqual(['a.txt']);
    // the failed call changed no read state: the file is still read at its old version
    await editOk({ file_path: env.file('a.txt'), old_string: 'precious', new_string: 'replaced' });
  });
});

describe('Edit: classifiers and permissions', () => {
  const input = { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' };

  it('is neither read-only nor concurrency-safe', () => {
    expect(editTool.isReadOnly(input)).toBe(false);
    expect(editTool.isConcurrencySafe(input)).toBe(false);
  });

  it('asks by default, suggesting Edit rules for the file and its directory', async () => {
    expect(await editTool.checkPermissions(input, env.ctx)).toEqual({
      behavior: 'ask',
      reason: 'Edit src/a.ts',
      suggestions: ['Edit(src/a.ts)', 'Edit(src/**)'],
    });
    expect(editTool.permissionPaths?.(input, env.ctx)).toEqual({ access: 'write', paths: [env.file('src/a.ts')] });
    const outside = await editTool.checkPermissions({ ...input, file_path: '/etc/hosts' }, env.ctx);
    expect(outside).toMatchObject({ behavior: 'ask', reason: 'Edit /etc/hosts, outside the project directory' });
  });

  it('two edits planned from the same read land in call order', async () => {
    writeFileSync(env.file('a.txt'), 'alpha\nbeta\n');
    await read('a.txt');
    const first = { file_path: env.file('a.txt'), old_string: 'alpha', new_string: 'ALPHA' };
    const second = { file_path: env.file('a.txt'), old_string: 'beta', new_string: 'BETA' };
    expect(await editTool.validateInput?.(second, env.nextCall())).toEqual({ ok: true });
    await editOk(first);
    await editOk(second);
    expect(readFileSync(env.file('a.txt'), 'utf8')).toBe('ALPHA\nBETA\n');
  });
});
