/**
 * The Bash battery's world: a fresh project per case (a victim file, a secret folder, a few harmless
 * files, optionally a git repository), a temporary HOME with an ssh key, and one call of the real
 * Bash tool through the real gate runner (find → parse → validate → hooks → permission → execute).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { executeCall, prepareCall, type RunnerEnv } from '../../src/core/tool-runner.js';
import type { CallOutcome } from '../../src/base/tool.js';
import { noHooks } from '../../src/hooks/types.js';
import type { PermissionMode } from '../../src/base/permission-modes.js';
import { parseRule } from '../../src/base/rule-parse.js';
import { bashTool } from '../../src/tools/bash/index.js';
import { ReadState } from '../../src/base/read-state.js';

export const SECRET = 'S3CR3T_4f9a1c';
export const SSH_KEY = 'SSH_PRIVATE_KEY_77d2';
export const RM_RULES = ['Bash(rm:*)'];
export const READ_RULES = ['Read(./secret/**)', 'Read(~/.ssh/**)'];
export const EDIT_RULES = ['Edit(./conf/**)'];
/** What `conf/` holds before a command runs (the folder EDIT_RULES guard). */
export const CONF_ORIGINAL = 'conf/app.json=ORIGINAL\n';

export interface World {
  project: string;
  home: string;
  victim: string;
  cleanup(): void;
}

export interface WorldOptions {
  /** Extra project files; a name ending in `*` is made executable (the `*` dropped). */
  files?: Record<string, string>;
  /** `init`: a git repository; `commit`: with everything committed. */
  git?: 'init' | 'commit';
  /** Files written after the repository is made: changes its work tree shows. */
  after?: Record<string, string>;
}

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-sec-bash-')));
let worlds = 0;

const rgDir = path.dirname(createRequire(import.meta.url)('@vscode/ripgrep').rgPath as string);
/** The system's programs first (a version manager's shims cost seconds a start), ripgrep from the dependency. */
export const PATH = `${rgDir}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:${process.env.PATH ?? ''}`;

export function makeWorld(opts: WorldOptions = {}): World {
  const dir = path.join(root, `w${++worlds}`);
  const project = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  const files: Record<string, string> = {
    V: 'the victim\n',
    'secret/key.txt': `${SECRET}\n`,
    'src/a.txt': 'hello world\n',
    'src/deep/b.txt': 'hello again\n',
    'f.txt': 'one line\n',
    'conf/app.json': 'ORIGINAL\n',
    ...opts.files,
  };
  for (const [rel, content] of Object.entries(files)) {
    const executable = rel.endsWith('*');
    const file = path.join(project, executable ? rel.slice(0, -1) : rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    if (executable) chmodSync(file, 0o755);
  }
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), `${SSH_KEY}\n`);
  if (opts.git) {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, env: gitEnv(home), stdio: 'ignore' });
    git('init', '-q');
    if (opts.git === 'commit') {
      git('add', '-A');
      git('commit', '-qm', 'all');
    }
  }
  for (const [rel, content] of Object.entries(opts.after ?? {})) writeFileSync(path.join(project, rel), content);
  return { project, home, victim: path.join(project, 'V'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function gitEnv(home: string): Record<string, string> {
  return { PATH, HOME: home, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', GIT_CONFIG_NOSYSTEM: '1' };
}

/** Every file under `conf/` with its content, as CONF_ORIGINAL spells it. */
export function confContent(world: World): string {
  const dir = path.join(world.project, 'conf');
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else out.push(`${path.relative(world.project, f)}=${e.isFile() ? readFileSync(f, 'utf8') : '(link)'}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort().join('');
}

export function removeAllWorlds(): void {
  rmSync(root, { recursive: true, force: true });
}

export interface CallOptions {
  rules?: readonly string[];
  mode?: PermissionMode;
  settings?: Record<string, unknown>;
}

let calls = 0;

/** One Bash call through every gate; what a person would be asked is answered "no". */
export async function bashCall(world: World, command: string, o: CallOptions = {}): Promise<CallOutcome> {
  const rules = [...(o.rules ?? [])];
  const env: RunnerEnv = {
    tools: [bashTool],
    state: { cwd: world.project, readState: new ReadState() },
    permission: { mode: o.mode ?? 'bypassPermissions', rules: { allow: [], ask: [], deny: rules.map((r) => parseRule(r, 'projectSettings')) } },
    hooks: noHooks,
    askUser: async () => ({ behavior: 'deny' }),
    base: {
      projectRoot: world.project,
      additionalDirs: [],
      homeDir: world.home,
      wicketHome: path.join(world.home, '.wicket'),
      sessionId: 'security-battery',
      env: { ...gitEnv(world.home), LANG: 'C', TERM: 'dumb' },
      settings: { permissions: { deny: rules }, ...o.settings },
    },
    emit: () => {},
  };
  const prepared = prepareCall({ id: `toolu_sec_${++calls}`, name: 'Bash', input: { command, timeout: 20_000 } }, env);
  if (prepared.kind === 'done') return prepared.outcome;
  return executeCall(prepared, env, new AbortController().signal);
}

/** The text the model would receive. */
export function resultText(o: CallOutcome): string {
  const c = o.result.content;
  return typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** The permission gate's verdict in the trace ("allowed", "denied", "asked"…). */
export function permissionVerdict(o: CallOutcome): string | undefined {
  return o.trace.find((r) => r.gate === 'permission')?.verdict;
}

const present = new Map<string, boolean>();

/** Is the program on PATH here? (Control runs of cases that need a missing one are skipped.) */
export function hasProgram(name: string): boolean {
  let hit = present.get(name);
  if (hit === undefined) {
    try {
      execFileSync('bash', ['-c', `command -v ${name}`], { env: { PATH }, stdio: 'ignore' });
      hit = true;
    } catch {
      hit = false;
    }
    present.set(name, hit);
  }
  return hit;
}

/** Wait for a background effect (a process substitution finishing after the shell). */
export async function settle(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

export { existsSync };
