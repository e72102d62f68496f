import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitStatusSync, mayBeInRepository, parseGitStatus, startGitStatus } from '../../../src/base/git-status.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-git-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('git status for the system prompt', () => {
  it('answers "not a repository" without starting git when no .git is above the folder', async () => {
    expect(mayBeInRepository(dir)).toBe(false);
    expect(gitStatusSync(dir)).toBeNull();
    expect(await startGitStatus(dir)).toBeNull();
  });

  it('finds the branch and the short status from a subfolder, both ways', async () => {
    execFileSync('git', ['init', '-q', '-b', 'topic'], { cwd: dir });
    writeFileSync(path.join(dir, 'new.txt'), 'x');
    mkdirSync(path.join(dir, 'sub'));
    const sub = path.join(dir, 'sub');
    expect(mayBeInRepository(sub)).toBe(true);
    const expected = { branch: 'topic', status: '?? ../new.txt' }; // paths relative to the cwd, as git prints them
    expect(gitStatusSync(sub)).toEqual(expected);
    expect(await startGitStatus(sub)).toEqual(expected);
  });

  it('parses detached heads, unborn branches and tracking info', () => {
    expect(parseGitStatus('## HEAD (no branch)\n M a.ts\n')).toEqual({ branch: '(detached)', status: ' M a.ts' });
    expect(parseGitStatus('## No commits yet on main\n')).toEqual({ branch: 'main', status: '' });
    expect(parseGitStatus('## main...origin/main [ahead 1]\n')).toEqual({ branch: 'main', status: '' });
  });
});
