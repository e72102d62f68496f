/**
 * Names a snapshot's commit in the shadow repository (shadow-git.ts) without starting git when it
 * can: the shadow is made by wicket's own `git init` with the "files" ref storage, where a ref is a
 * file holding the commit id; it is written to a temporary file beside the refs and renamed into
 * place, as git does. A shadow with reftable storage, or a name git might refuse, goes through
 * `git update-ref`.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';

let tmpCount = 0;

/** Whether `ref` can be written as a plain file: `refs/wicket/<session>/<n>`, with plain names only. */
export function plainRef(ref: string): boolean {
  return /^refs\/wicket\/[A-Za-z0-9_-]+\/\d+$/.test(ref);
}

/** Points `ref` at `commit`; `viaGit` runs `git update-ref` when a file cannot be written. */
export async function writeRef(gitDir: string, ref: string, commit: string, viaGit: () => Promise<unknown>): Promise<void> {
  if (!/^[0-9a-f]{40}$/.test(commit) || !plainRef(ref) || existsSync(path.join(gitDir, 'reftable'))) {
    await viaGit();
    return;
  }
  const file = path.join(gitDir, ...ref.split('/'));
  const tmp = path.join(gitDir, `wicket-ref-${process.pid}-${++tmpCount}`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, `${commit}\n`);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}
