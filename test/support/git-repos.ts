/**
 * Local git repositories for the plugin tests: a work tree where files are written and committed,
 * pushed to a bare repository that the program under test clones through a `file://` URL, so no
 * test reaches the network. `githubRewrite(root)` is the environment that makes git fetch
 * `https://github.com/<owner>/<repo>.git` from `<root>/<owner>/<repo>.git` instead.
 *
 *   const repo = gitRepo(path.join(base, 'src/team'), path.join(base, 'remote/team.git'));
 *   repo.write({ '.claude-plugin/marketplace.json': {...} }).commit('one').tag('v1').push();
 *   repo.url // file:///…/remote/team.git
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface GitRepo {
  /** The work tree. */
  dir: string;
  /** The bare repository's file:// URL. */
  url: string;
  write(files: Record<string, string | object>): GitRepo;
  commit(message: string): GitRepo;
  tag(name: string): GitRepo;
  /** Pushes the branch and the tags to the bare repository. */
  push(): GitRepo;
  /** The current commit. */
  head(): string;
}

const quiet = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', GIT_TERMINAL_PROMPT: '0' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=Test', ...args], {
    cwd,
    env: { ...process.env, ...quiet },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** A new repository at `dir` (branch main) whose pushes go to a bare repository at `bare`. */
export function gitRepo(dir: string, bare: string): GitRepo {
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.dirname(bare), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(path.dirname(bare), 'init', '-q', '--bare', '-b', 'main', path.basename(bare));
  const repo: GitRepo = {
    dir,
    url: pathToFileURL(bare).href,
    write(files) {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(dir, rel);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      }
      return repo;
    },
    commit(message) {
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '--no-verify', '-m', message);
      return repo;
    },
    tag(name) {
      git(dir, 'tag', name);
      return repo;
    },
    push() {
      git(dir, 'push', '-q', '--tags', bare, 'main');
      return repo;
    },
    head: () => git(dir, 'rev-parse', 'HEAD'),
  };
  return repo;
}

/** Environment for git: https://github.com/… is read from `root` (bare repositories `<root>/<owner>/<repo>.git`). */
export function githubRewrite(root: string): Record<string, string> {
  return { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${pathToFileURL(root).href}/.insteadOf`, GIT_CONFIG_VALUE_0: 'https://github.com/' };
}
