/**
 * A watched shadow repository (a session's): a snapshot of an unchanged tree skips git's scan, a
 * snapshot after a few changes updates only the changed paths, and after any change (content, mode,
 * a file created in a new folder, a folder renamed or replaced, ignore rules, a nested repository)
 * its tree and its record of modes are exactly what git's full scan and a full walk record.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ShadowRepo } from '../../../src/session/shadow-git.js';
import { serializeModes } from '../../../src/session/shadow-modes.js';

let root: string;
let project: string;
let watched: ShadowRepo;
let scanned: ShadowRepo;

function write(rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
  writeFileSync(path.join(project, rel), content);
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-watch-')));
  project = path.join(root, 'project');
  mkdirSync(project);
  watched = new ShadowRepo(path.join(root, 'home', 'watched'), project, { watch: true });
  scanned = new ShadowRepo(path.join(root, 'home', 'scanned'), project);
});
afterEach(() => {
  watched.close();
  rmSync(root, { recursive: true, force: true });
});

/** The watched tree and modes, checked against git's full scan and a full walk of the same files; `partial`: no full scan was made. */
async function same(partial?: boolean): Promise<string> {
  const spy = vi.spyOn(watched, 'git');
  const w = await watched.writeTree();
  const fullScans = spy.mock.calls.filter(([args]) => args.includes('.')).length;
  spy.mockRestore();
  const s = await scanned.writeTree();
  expect(w.tree).toBe(s.tree);
  expect(serializeModes(w.modes.map)).toBe(serializeModes(s.modes.map));
  if (partial) expect(fullScans).toBe(0);
  return w.tree;
}

async function files(tree: string): Promise<string[]> {
  return (await scanned.git(['ls-tree', '-r', '--name-only', tree])).stdout.toString('utf8').split('\n');
}

/** A snapshot of the unchanged tree runs no git at all. */
async function free(): Promise<void> {
  const spy = vi.spyOn(watched, 'git');
  const w = await watched.writeTree();
  expect(spy).not.toHaveBeenCalled();
  spy.mockRestore();
  expect(w.tree).toBe((await scanned.writeTree()).tree);
}

it.skipIf(process.platform !== 'linux')('records every change made just before a snapshot, as git would', { timeout: 30_000 }, async () => {
  write('.gitignore', 'node_modules/\n');
  write('src/a.ts', 'a\n');
  write('src/deep/b.ts', 'b\n');
  await same();
  await same(); // the watch is armed by the second scan
  await free();
  // a large ignored folder appears, with more folders than the watch takes: it is left out from the next scan on
  for (let i = 0; i < 1001; i++) write(`node_modules/p${i % 40}/f${i}.js`, 'x');
  await same();
  await same();
  await free();
  write('node_modules/p0/f0.js', 'changed in a folder left out');
  await free();

  write('src/a.ts', 'A\n'); // same size
  chmodSync(path.join(project, 'src/deep/b.ts'), 0o755);
  symlinkSync('a.ts', path.join(project, 'src/link'));
  await same(true);
  chmodSync(path.join(project, 'src/a.ts'), 0o600); // a mode git does not keep
  chmodSync(path.join(project, 'src/deep'), 0o700); // a folder's
  await same(true);
  write('src/new/dir/c.ts', 'c\n');
  await same(true);
  write('src/new/dir/d.ts', 'd\n'); // in a folder made since the watch began
  await same(true);
  renameSync(path.join(project, 'src/new'), path.join(project, 'src/moved'));
  rmSync(path.join(project, 'src/deep'), { recursive: true });
  mkdirSync(path.join(project, 'src/deep'));
  await same(true);
  unlinkSync(path.join(project, 'src/moved/dir/c.ts')); // in a folder moved
  write('src/deep/e.ts', 'e\n'); // in a folder replaced by another of the same name
  await same(true);
  write('src/.env', 'small and ignored\n');
  write('.gitignore', 'node_modules/\n.env\n'); // the rules changed: a full scan
  await same();
  write('src/.env', 'changed\n');
  write('src/tmp.txt', 'made and removed between two snapshots\n');
  unlinkSync(path.join(project, 'src/tmp.txt'));
  await same(true);
  // a nested repository appears: its files are in the tree (not a link), and a change in it is seen
  write('vendor/lib/index.js', 'v1\n');
  execFileSync('git', ['init', '-q'], { cwd: path.join(project, 'vendor/lib') });
  const withNested = await same();
  expect(await files(withNested)).toContain('vendor/lib/index.js');
  write('vendor/lib/index.js', 'v2\n');
  expect(await same(true)).not.toBe(withNested);
  await free();
});
