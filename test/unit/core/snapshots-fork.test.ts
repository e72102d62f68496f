/** A forked session starts with its parent's snapshots of the project (and its notes of files written outside it); the parent's stay its own. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { outsideFile, Snapshots } from '../../../src/core/snapshots/snapshots.js';
import { ShadowRepo } from '../../../src/session/shadow-git.js';
import { initBashParser } from '../../../src/tools/bash/parse.js';

let root: string;
let project: string;
let home: string;

beforeEach(async () => {
  await initBashParser();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-fork-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const open = (session: string, parent?: string) => new Snapshots(ShadowRepo.forProject(path.join(home, '.wicket'), project), session, home, parent);

it('the fork sees the snapshots its parent took before it, and adds its own', async () => {
  const parent = open('parent');
  writeFileSync(path.join(project, 'a.txt'), 'one\n');
  parent.begin(1);
  await parent.beforeChange('Bash', { command: 'echo two > /tmp/outside-note.txt' }, project);
  writeFileSync(path.join(project, 'a.txt'), 'two\n');
  const first = await parent.at(1);
  await vi.waitFor(() => expect(existsSync(outsideFile(parent.repo.place.gitDir, 'parent'))).toBe(true)); // written in the background

  const fork = open('fork', 'parent');
  expect((await fork.at(1))?.tree).toBe(first?.tree);
  expect(fork.outsideSince(1)).toEqual(['/tmp/outside-note.txt']);
  fork.begin(2);
  await fork.beforeChange('Edit', {}, project);
  expect((await fork.repo.list('fork')).map((s) => s.checkpoint)).toEqual([1, 2]);
  expect((await fork.repo.list('parent')).map((s) => s.checkpoint)).toEqual([1]);

  // once the fork has snapshots of its own, its parent's later ones are not copied again
  parent.begin(3);
  await parent.beforeChange('Edit', {}, project);
  expect((await open('fork', 'parent').repo.list('fork')).map((s) => s.checkpoint)).toEqual([1, 2]);
  expect(await open('other').at(1)).toBeUndefined();
});
