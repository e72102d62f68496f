import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitStatusSync, mayBeInRepository, parseGitStatus, removeStaleGitStatusFiles, startGitStatus } from '../../../src/base/git-status.js';

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

describe('the status the launcher started', () => {
  const file = () => path.join(dir, `git-status-${process.pid}`);
  afterEach(() => {
    delete process.env.WICKET_GIT_STATUS;
  });

  it("waits for the exit code, reads git's output, removes both files and the variable", async () => {
    process.env.WICKET_GIT_STATUS = file();
    writeFileSync(file(), '## topic\n?? new.txt\n');
    writeFileSync(`${file()}.done`, ''); // made, not yet written
    const answer = startGitStatus(dir);
    expect(process.env.WICKET_GIT_STATUS).toBeUndefined();
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(`${file()}.done`, '0\n');
    expect(await answer).toEqual({ branch: 'topic', status: '?? new.txt' });
    expect(existsSync(file()) || existsSync(`${file()}.done`)).toBe(false);
  });

  it('answers "not a repository" when git failed', async () => {
    process.env.WICKET_GIT_STATUS = file();
    writeFileSync(file(), '');
    writeFileSync(`${file()}.done`, '128\n');
    expect(await startGitStatus(dir)).toBeNull();
  });

  it('ignores a file named for another process, and starts git itself', async () => {
    execFileSync('git', ['init', '-q', '-b', 'mine'], { cwd: dir });
    const other = path.join(dir, `git-status-${process.pid + 1}`);
    writeFileSync(other, '## theirs\n');
    writeFileSync(`${other}.done`, '0\n');
    process.env.WICKET_GIT_STATUS = other;
    expect(await startGitStatus(dir)).toEqual({
      branch: 'mine',
      status: '?? git-status-' + (process.pid + 1) + '\n?? git-status-' + (process.pid + 1) + '.done',
    });
    expect(existsSync(other)).toBe(true);
  });

  it('tidies the files no run read once they are an hour old, and nothing else', () => {
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of ['git-status-11', 'git-status-11.done', 'git-status-12', 'main-abc.v8cache']) {
      writeFileSync(path.join(dir, name), '0\n');
      if (name !== 'git-status-12') utimesSync(path.join(dir, name), old, old);
    }
    removeStaleGitStatusFiles(dir);
    expect(readdirSync(dir).sort()).toEqual(['git-status-12', 'main-abc.v8cache']);
    removeStaleGitStatusFiles(path.join(dir, 'missing'));
  });

  it('does not start git beside an empty .git folder (git itself looks further up)', () => {
    mkdirSync(path.join(dir, '.git'));
    expect(mayBeInRepository(dir)).toBe(false);
    writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(mayBeInRepository(dir)).toBe(true);
  });
});

describe('git status only looks', () => {
  it('leaves the index as it was when a file was touched, in process and in the background', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'a');
    const index = path.join(dir, '.git', 'index');
    for (const [minutes, run] of [
      [1, () => gitStatusSync(dir)],
      [2, () => startGitStatus(dir)],
    ] as const) {
      // A new mtime, the same bytes: a git status that may refresh the index rewrites it.
      const later = new Date(Date.now() + 60_000 * minutes);
      utimesSync(path.join(dir, 'a.txt'), later, later);
      const before = readFileSync(index);
      expect(await run()).toEqual({ branch: 'main', status: '' });
      expect(readFileSync(index).equals(before)).toBe(true);
    }
  });
});
