/** Temporary folder trees for the instruction-file tests: a project, a HOME and a managed folder. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { type DiscoverOptions, discoverInstructions } from '../../../src/session/memory/discover.js';

export interface Tree {
  root: string;
  /** The project (the working directory unless a test moves it). */
  project: string;
  home: string;
  configDir: string;
  managed: string;
  /** Writes files under `base`, by relative path. */
  write(base: string, files: Record<string, string>): void;
  link(target: string, at: string): void;
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tree(): Tree {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-mem-')));
  made.push(root);
  const t: Tree = {
    root,
    project: path.join(root, 'work', 'proj'),
    home: path.join(root, 'home'),
    configDir: path.join(root, 'home', '.claude'),
    managed: path.join(root, 'managed'),
    write(base, files) {
      for (const [rel, text] of Object.entries(files)) {
        const p = path.join(base, rel);
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, text);
      }
    },
    link(target, at) {
      mkdirSync(path.dirname(at), { recursive: true });
      symlinkSync(target, at);
    },
  };
  for (const d of [t.project, t.configDir, t.managed]) mkdirSync(d, { recursive: true });
  return t;
}

/** Discovery in the tree with no deny rules, no managed text, default sources. */
export function discover(t: Tree, extra: Partial<DiscoverOptions> = {}) {
  return discoverInstructions({
    cwd: t.project,
    home: t.home,
    configDir: t.configDir,
    managedDir: t.managed,
    deniedBy: () => undefined,
    ...extra,
  });
}

/** Paths relative to the tree's root, for short assertions. */
export function rel(t: Tree, files: ReadonlyArray<{ path: string }>): string[] {
  return files.map((f) => (f.path.startsWith('<') ? f.path : path.relative(t.root, f.path)));
}
