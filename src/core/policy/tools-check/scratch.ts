/**
 * The throw-away copy of a project that `tools check` runs tools in, and the hash that tells
 * whether anything in it changed. The copy leaves out `.git` and `node_modules` (and anything that is
 * not a file, a folder or a link); the real project is only read.
 */
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SAMPLE_DIR, SAMPLE_NOTEBOOK, SAMPLE_TEXT } from './samples.js';

const LEFT_OUT = new Set(['.git', 'node_modules']);

export interface Scratch {
  /** The copy of the project, with the samples' files. */
  project: string;
  /** A home folder of its own (tools write their own state there, never in the person's). */
  home: string;
  remove(): void;
}

export function makeScratch(project: string): Scratch {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-tools-check-')));
  const copy = path.join(root, 'project');
  const home = path.join(root, 'home');
  const from = realpathSync(project);
  cpSync(from, copy, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => {
      if (src !== from && LEFT_OUT.has(path.basename(src))) return false;
      const st = lstatSync(src, { throwIfNoEntry: false });
      return !!st && (st.isFile() || st.isDirectory() || st.isSymbolicLink());
    },
  });
  mkdirSync(path.join(copy, SAMPLE_DIR), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(copy, SAMPLE_DIR, 'sample.txt'), SAMPLE_TEXT);
  writeFileSync(path.join(copy, SAMPLE_DIR, 'sample.ipynb'), SAMPLE_NOTEBOOK);
  return { project: copy, home, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every entry under `dir`: its path, kind, mode, mtime and content (a link: its target). */
export function treeHash(dir: string): string {
  const h = process.getBuiltinModule('node:crypto').createHash('sha256');
  const walk = (rel: string) => {
    const full = path.join(dir, rel);
    const st = lstatSync(full);
    h.update(`${rel}\0${st.mode}\0${st.isDirectory() ? 0 : st.mtimeMs}\0`);
    if (st.isSymbolicLink()) h.update(readlinkSync(full));
    else if (st.isFile()) h.update(readFileSync(full));
    else if (st.isDirectory()) for (const name of readdirSync(full).sort()) walk(path.join(rel, name));
    h.update('\0');
  };
  walk('.');
  return h.digest('hex');
}
