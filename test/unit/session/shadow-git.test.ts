/** The shadow repository: what a snapshot keeps and leaves out, and how snapshots are pruned with their sessions and under the size cap. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShadowRepo } from '../../../src/session/shadow-git.js';
import { pruneSnapshots } from '../../../src/session/shadow-prune.js';

let root: string;
let project: string;
let gitDir: string;

function write(rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
  writeFileSync(path.join(project, rel), content);
}

async function files(repo: ShadowRepo, tree: string): Promise<string[]> {
  return (await repo.git(['ls-tree', '-r', '--name-only', tree])).stdout.toString('utf8').trim().split('\n').filter(Boolean);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-shadow-')));
  project = path.join(root, 'project');
  gitDir = path.join(root, 'home', 'snapshots', 'p');
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('what a snapshot keeps', () => {
  it('keeps tracked, untracked and small ignored files; leaves out large ignored folders, files over the cap and .git', async () => {
    write('.gitignore', 'node_modules/\n.env\ncache/\n');
    write('src/a.ts', 'a\n');
    write('.env', 'SECRET=1\n');
    write('cache/small.json', '{}\n');
    for (let i = 0; i < 1001; i++) write(`node_modules/p/f${i}.js`, 'x');
    write('big.bin', randomBytes(2 * 1024 * 1024));
    execFileSync('git', ['init', '-q'], { cwd: project });
    const index = () => (existsSync(path.join(project, '.git', 'index')) ? readFileSync(path.join(project, '.git', 'index')) : undefined);
    const before = index();
    const repo = new ShadowRepo(gitDir, project, { fileCap: 1024 * 1024 });
    const { tree } = await repo.writeTree();
    expect(await files(repo, tree)).toEqual(['.env', '.gitignore', 'cache/small.json', 'src/a.ts']);
    // The project's repository is not touched.
    expect(index()).toEqual(before);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: project, encoding: 'utf8' })).toContain('?? src/');
    // An unchanged tree gives the same tree; a file grown over the cap leaves the snapshot.
    expect((await repo.writeTree()).tree).toBe(tree);
    write('src/a.ts', randomBytes(2 * 1024 * 1024));
    expect(await files(repo, (await repo.writeTree()).tree)).toEqual(['.env', '.gitignore', 'cache/small.json']);
  });
});

describe('pruning', () => {
  async function snap(repo: ShadowRepo, session: string, checkpoint: number, bytes = 0): Promise<void> {
    if (bytes) write(`data-${session}-${checkpoint}.bin`, randomBytes(bytes));
    await repo.snapshot({ session, checkpoint });
  }
  const refs = async (repo: ShadowRepo) =>
    (await repo.git(['for-each-ref', '--format=%(refname)', 'refs/wicket/'])).stdout.toString('utf8').trim().split('\n').filter(Boolean);

  it('drops the snapshots of removed sessions, then removes a repository left empty', async () => {
    const repo = new ShadowRepo(gitDir, project);
    write('a.txt', 'a\n');
    await snap(repo, 'old', 1);
    await snap(repo, 'live', 2);
    await pruneSnapshots(path.join(root, 'home'), { removed: ['old'], keep: ['live'], cutoffMs: 0, always: true });
    expect(await refs(repo)).toEqual(['refs/wicket/live/2']);
    // not while a scan may still use it (the last one made within the hour)
    await pruneSnapshots(path.join(root, 'home'), { removed: ['live'], keep: [], cutoffMs: 0, always: true });
    expect(existsSync(gitDir)).toBe(true);
    await pruneSnapshots(path.join(root, 'home'), { removed: [], keep: [], cutoffMs: 0, always: true, now: Date.now() + 2 * 3600_000 });
    expect(existsSync(gitDir)).toBe(false);
  });

  it('keeps a repository made within the hour, though no scan has stamped it yet (a first scan may be in git init)', async () => {
    const repo = new ShadowRepo(gitDir, project);
    write('a.txt', 'a\n');
    await snap(repo, 'live', 1);
    await pruneSnapshots(path.join(root, 'home'), { removed: ['live'], keep: [], cutoffMs: 0, always: true });
    rmSync(path.join(gitDir, 'wicket-used'), { force: true });
    await pruneSnapshots(path.join(root, 'home'), { removed: [], keep: [], cutoffMs: 0, always: true });
    expect(existsSync(path.join(gitDir, 'HEAD'))).toBe(true);
    await pruneSnapshots(path.join(root, 'home'), { removed: [], keep: [], cutoffMs: 0, always: true, now: Date.now() + 2 * 3600_000 });
    expect(existsSync(gitDir)).toBe(false);
  });

  it('drops snapshots older than the period, and the oldest first when the repository is over its cap', async () => {
    const repo = new ShadowRepo(gitDir, project, { fileCap: 10 * 1024 * 1024 });
    for (let i = 1; i <= 4; i++) await snap(repo, 's', i, 300 * 1024);
    await pruneSnapshots(path.join(root, 'home'), { removed: [], keep: [], cutoffMs: 0, always: true, capBytes: 700 * 1024 });
    expect(await refs(repo)).toEqual(['refs/wicket/s/4']);
    await pruneSnapshots(path.join(root, 'home'), { removed: [], keep: [], cutoffMs: Date.now() + 60_000, always: true, now: Date.now() + 2 * 3600_000 });
    expect(existsSync(gitDir)).toBe(false);
  });
});
