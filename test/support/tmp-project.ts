/**
 * A temporary project directory and a separate temporary HOME, so no test ever touches the real
 * home directory or the real ~/.claude. Both are realpath'd (macOS /var → /private/var), so paths
 * compare equal to what the program under test resolves.
 *
 *   const project = await makeTmpProject({ files: { 'a.txt': 'hi' }, settings: { permissions: { allow: ['Read'] } } });
 *   try { … } finally { await project.cleanup(); }
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

export type FileMap = Record<string, string | Buffer>;

export interface TmpProjectOptions {
  /** Files in the project, by path relative to it. */
  files?: FileMap;
  /** Project settings, written to `<dir>/.claude/settings.json`. */
  settings?: object;
  /** Personal project settings, written to `<dir>/.claude/settings.local.json`. */
  localSettings?: object;
  /** User settings, written to `<home>/.claude/settings.json`. */
  userSettings?: object;
  /** Files in the temporary HOME, by path relative to it (e.g. `.claude/CLAUDE.md`). */
  home?: FileMap;
  /** Run `git init` in the project (for tools that honour .gitignore). */
  git?: boolean;
  /**
   * Whether the person has trusted the project (`~/.claude.json`, as the app's trust dialog saves it),
   * so its allow rules apply. Default true; false leaves the project untrusted.
   */
  trusted?: boolean;
}

export interface TmpProject {
  /** The project directory (realpath). */
  dir: string;
  /** The temporary HOME (realpath); never the real one. */
  home: string;
  /** wicket's state folder for this test: `<home>/.wicket` (pass as WICKET_HOME). */
  wicketHome: string;
  /** Absolute path of a project-relative path. */
  path(rel: string): string;
  /** Write a file in the project, creating parent folders. */
  write(rel: string, content: string | Buffer): Promise<void>;
  /** Write a file in the temporary HOME, creating parent folders. */
  writeHome(rel: string, content: string | Buffer): Promise<void>;
  /** Read a project file as UTF-8. */
  read(rel: string): Promise<string>;
  exists(rel: string): boolean;
  /** Remove both directories. Safe to call twice. */
  cleanup(): Promise<void>;
}

/** Resolve `rel` inside `root`, refusing paths that escape it (a test typo should not write elsewhere). */
function inside(root: string, rel: string): string {
  const abs = resolve(root, rel);
  const back = relative(root, abs);
  if (back.startsWith('..') || isAbsolute(back)) throw new Error(`path escapes the temporary directory: ${rel}`);
  return abs;
}

async function writeInside(root: string, rel: string, content: string | Buffer): Promise<void> {
  const abs = inside(root, rel);
  await mkdir(dirname(abs), { recursive: true });
  await writeFile(abs, content);
}

async function writeAll(root: string, files: FileMap = {}): Promise<void> {
  for (const [rel, content] of Object.entries(files)) await writeInside(root, rel, content);
}

const json = (value: object) => `${JSON.stringify(value, null, 2)}\n`;

/** Records `dir` as trusted in `<home>/.claude.json`, keeping what a test put there. */
export async function trustFolder(home: string, dir: string): Promise<void> {
  const file = join(home, '.claude.json');
  const data = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : {};
  data.projects ??= {};
  data.projects[dir] = { ...data.projects[dir], hasTrustDialogAccepted: true };
  await writeFile(file, json(data));
}

export async function makeTmpProject(opts: TmpProjectOptions = {}): Promise<TmpProject> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'wicket-project-')));
  const home = await realpath(await mkdtemp(join(tmpdir(), 'wicket-home-')));
  const project: TmpProject = {
    dir,
    home,
    wicketHome: join(home, '.wicket'),
    path: (rel) => inside(dir, rel),
    write: (rel, content) => writeInside(dir, rel, content),
    writeHome: (rel, content) => writeInside(home, rel, content),
    read: (rel) => readFile(inside(dir, rel), 'utf8'),
    exists: (rel) => existsSync(inside(dir, rel)),
    async cleanup() {
      // A process the test started may still be writing as it ends (a killed app's hook, its MCP
      // server): rm tries again when a folder fills while it empties it (ENOTEMPTY).
      await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
  try {
    await writeAll(dir, opts.files);
    await writeAll(home, opts.home);
    if (opts.trusted !== false) await trustFolder(home, dir);
    if (opts.settings) await project.write('.claude/settings.json', json(opts.settings));
    if (opts.localSettings) await project.write('.claude/settings.local.json', json(opts.localSettings));
    if (opts.userSettings) await project.writeHome('.claude/settings.json', json(opts.userSettings));
    if (opts.git) execFileSync('git', ['init', '-q'], { cwd: dir, stdio: 'ignore' });
  } catch (err) {
    await project.cleanup();
    throw err;
  }
  return project;
}
