/** The files a Bash command showed the model, as Claude Code counts them for the instruction files a touch brings. */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBashParser } from '../../../src/tools/bash/parse.js';
import { filesShownBy, filesShownInOutput } from '../../../src/tools/bash/shown-files.js';

const files = (command: string) => filesShownBy(command).map((s) => s.file);

describe('files a Bash command shows', () => {
  beforeAll(() => initBashParser(), 30_000);

  it('cat, nl, bat, head, tail and sed -n of one file, beside echo; grep or rg only alone', () => {
    expect(files('cat src/a.ts')).toEqual(['src/a.ts']);
    expect(files('cat -n a && head -n 5 b; tail -3 c && nl d && bat -p e')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(files("sed -n '2,4p' a")).toEqual(['a']);
    expect(filesShownBy("sed -n '3p' a")).toEqual([{ file: 'a', start: 3, end: 3 }]);
    expect(filesShownBy('head --lines=2 a')).toEqual([{ file: 'a', start: 1, end: 2 }]);
    expect(filesShownBy('tail a')).toEqual([{ file: 'a', tail: 10 }]);
    expect(files('echo --- && cat "my file.md"')).toEqual(['my file.md']);
    expect(filesShownBy('grep -n foo a.ts')).toEqual([{ file: 'a.ts', search: true }]);
    expect(files('rg -i foo a.ts')).toEqual(['a.ts']);
  });

  it('nothing for pipes, redirections, substitutions, variables, other programs, several files, or grep beside another command', () => {
    for (const c of [
      'cat a | head',
      'cat a > b',
      'cat < a',
      'cat $(echo a)',
      'cat $F',
      'less a',
      'more a',
      'cat a b',
      'cat -A a',
      'ls && cat a',
      'grep x a && cat b',
      'grep x *.ts',
      "sed -i -n '1p' a",
      "sed '1p' a",
      'head -n 0 a',
      '(cat a)',
    ])
      expect(files(c), c).toEqual([]);
  });
});

describe('files a finished command showed', () => {
  let dir: string;
  beforeAll(async () => {
    await initBashParser();
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-shown-')));
    writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(path.join(dir, 'empty.txt'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('count when the output holds the part shown, or was cut; grep only when it exited 0; never a missing file or a folder', () => {
    const a = path.join(dir, 'a.txt');
    expect(filesShownInOutput('cat a.txt', dir, true, 'one\ntwo\nthree')).toEqual([a]);
    expect(filesShownInOutput('cat -n a.txt', dir, true, '     1\tone\n     2\ttwo\n     3\tthree')).toEqual([a]);
    expect(filesShownInOutput('head -n 1 a.txt', dir, true, 'one')).toEqual([a]);
    expect(filesShownInOutput('tail -1 a.txt', dir, true, 'three')).toEqual([a]);
    expect(filesShownInOutput('cat a.txt', dir, true, 'something else')).toEqual([]);
    expect(filesShownInOutput('cat a.txt', dir, true, undefined)).toEqual([a]);
    expect(filesShownInOutput('cat empty.txt', dir, true, '')).toEqual([path.join(dir, 'empty.txt')]);
    expect(filesShownInOutput('grep two a.txt', dir, true, 'two')).toEqual([a]);
    expect(filesShownInOutput('grep four a.txt', dir, false, '')).toEqual([]);
    expect(filesShownInOutput('cat gone.txt', dir, true, '')).toEqual([]);
    expect(filesShownInOutput(`cat ${dir}`, dir, true, '')).toEqual([]);
  });
});
