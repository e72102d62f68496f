/**
 * The app warms its snapshots while the person types: git's full scan is made ahead and the watch
 * armed, so that the first prompt's snapshot runs no git at all, and the next one after a Bash
 * call's changes skips the full scan; a restore to the first prompt still brings back every byte and
 * mode bit. A new process (the folders left out known from the last one) arms the watch with its
 * first scan.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { Rewinder } from '../../../src/core/snapshots/rewinder.js';
import { Snapshots } from '../../../src/core/snapshots/snapshots.js';
import { ShadowRepo } from '../../../src/session/shadow-git.js';

let root: string;
let project: string;
let home: string;
const opened: Snapshots[] = [];

function write(rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
  writeFileSync(path.join(project, rel), content);
}

/** Every file and folder: its mode and a file's bytes. */
function tree(rel = ''): Record<string, string> {
  const abs = path.join(project, rel);
  const out: Record<string, string> = { [`${rel}/`]: (statSync(abs).mode & 0o7777).toString(8) };
  for (const name of readdirSync(abs)) {
    const r = rel ? `${rel}/${name}` : name;
    if (r === 'node_modules') continue;
    const st = statSync(path.join(project, r));
    if (st.isDirectory()) Object.assign(out, tree(r));
    else out[r] = `${(st.mode & 0o7777).toString(8)} ${readFileSync(path.join(project, r), 'utf8')}`;
  }
  return out;
}

function open(): Snapshots {
  const s = new Snapshots(ShadowRepo.forProject(home, project, { watch: true }), 'session', home);
  opened.push(s);
  return s;
}

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-warm-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  write('a.txt', 'one\n');
  write('gone.txt', 'bye\n');
  write('docs/guide.md', '# guide\n');
  write('run.sh', '#!/bin/sh\n');
  chmodSync(path.join(project, 'run.sh'), 0o755);
  write('.gitignore', 'node_modules/\n');
  for (let i = 0; i < 1001; i++) write(`node_modules/p/f${i}.js`, `${i}\n`);
});
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  rmSync(root, { recursive: true, force: true });
});

it("after the app's warm-up, the first prompts' snapshots skip git's full scan, and a restore brings back every byte and mode", async () => {
  const snaps = open();
  await snaps.warm();
  expect(snaps.repo.watched).toBe(true);
  const scans = snaps.repo.fullScans;
  const before = tree();

  snaps.begin(1);
  // the tree and its commit were made ahead: the first snapshot runs no git at all
  const spy = vi.spyOn(snaps.repo, 'git');
  await snaps.beforeChange('Bash', { command: 'change things' }, project);
  expect(spy).not.toHaveBeenCalled();
  spy.mockRestore();
  expect(snaps.repo.fullScans).toBe(scans);
  // what the Bash call does
  write('a.txt', 'two\n');
  unlinkSync(path.join(project, 'gone.txt'));
  renameSync(path.join(project, 'docs/guide.md'), path.join(project, 'docs/moved.md'));
  write('new/deep.txt', 'made\n');
  chmodSync(path.join(project, 'run.sh'), 0o4750);
  chmodSync(path.join(project, 'docs'), 0o700);
  chmodSync(path.join(project, 'a.txt'), 0o600);
  const after = tree();

  snaps.begin(2);
  await snaps.beforeChange('Bash', { command: 'more' }, project);
  expect(snaps.repo.fullScans).toBe(scans);

  const report = await new Rewinder(undefined, snaps).restore(1);
  expect(report.refused).toBeUndefined();
  expect(tree()).toEqual(before);
  await new Rewinder(undefined, snaps).restore(2);
  expect(tree()).toEqual(after);
});

it('a new process arms the watch with its first full scan, the folders left out being known from the last one', async () => {
  const first = open();
  await first.warm();
  first.close();
  const next = open();
  await next.warm();
  expect(next.repo.fullScans).toBe(1);
  expect(next.repo.watched).toBe(true);
  // once a snapshot has started, the warm-up does nothing
  const third = open();
  third.begin(1);
  third.start();
  await third.warm();
  await third.beforeChange('Edit', {}, project);
  expect(third.repo.fullScans).toBe(1);
});

it('a snapshot that cannot be taken is said once per prompt, with the reason; a prompt whose snapshot is taken says nothing', async () => {
  // wicket's home is a file: the shadow repository cannot be made
  const blocked = path.join(root, 'blocked-home');
  writeFileSync(blocked, 'not a folder\n');
  const snaps = new Snapshots(ShadowRepo.forProject(blocked, project), 'session', home);
  opened.push(snaps);
  snaps.begin(1);
  const first = await snaps.beforeChange('Bash', { command: 'change things' }, project);
  expect(first).toMatch(/ENOTDIR|not a directory|EEXIST/i);
  expect(await snaps.beforeChange('Edit', {}, project)).toBeUndefined();
  snaps.begin(2);
  expect(await snaps.beforeChange('Edit', {}, project)).toBe(first);

  const fine = open();
  fine.begin(1);
  expect(await fine.beforeChange('Bash', { command: 'change things' }, project)).toBeUndefined();
});
