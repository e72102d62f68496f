/**
 * The system's `git`, for fetching marketplaces and plugins as Claude Code does: a shallow clone
 * (`--depth 1`, of a branch or tag when one is named), or a full one checked out at a commit when a
 * 40-character `sha` pins it. git never asks for anything (no terminal prompt, ssh in batch mode):
 * a clone that needs credentials fails with git's own message, as does one with no network or a
 * ref that is not there. The time limit is CLAUDE_CODE_PLUGIN_GIT_TIMEOUT_MS (default 120 s).
 */
import path from 'node:path';
import { execaLib } from '../base/lib/execa-lib.js';

const DEFAULT_TIMEOUT_MS = 120_000;

/** A git command that failed: the command as run, and what git said. */
export class GitError extends Error {
  constructor(
    readonly command: string,
    readonly output: string,
  ) {
    super(`${command} failed: ${output || 'git gave no reason'}`);
  }
}

export interface GitOptions {
  env: Record<string, string | undefined>;
  cwd?: string;
}

/** Runs `git <args>`; resolves with its stdout, trimmed; throws GitError naming the command and git's message. */
export async function runGit(args: string[], o: GitOptions): Promise<string> {
  const { execa } = await execaLib();
  const command = `git ${args.join(' ')}`;
  // No `ext::` transport, whatever the configuration says: a URL from a marketplace must not run a command.
  const r = await execa('git', ['-c', 'protocol.ext.allow=never', ...args], {
    cwd: o.cwd ?? process.cwd(),
    reject: false,
    stdin: 'ignore',
    timeout: timeoutMs(o.env),
    env: quietEnv(o.env),
    extendEnv: false,
  });
  if (r.timedOut) throw new GitError(command, `no answer within ${timeoutMs(o.env) / 1000} s (CLAUDE_CODE_PLUGIN_GIT_TIMEOUT_MS)`);
  if (r.failed && (r as { code?: string }).code === 'ENOENT') throw new GitError(command, 'git is not installed, or not on PATH');
  if (r.exitCode !== 0) throw new GitError(command, gitMessage(String(r.stderr || r.stdout)));
  return String(r.stdout).trim();
}

/** Clones `url` into `dest` (which must not exist): shallow at `ref`, or full and checked out at `sha`. */
export async function cloneRepo(url: string, dest: string, pin: { ref?: string; sha?: string }, env: GitOptions['env']): Promise<void> {
  if (pin.sha) {
    await runGit(['clone', '--no-checkout', '--no-recurse-submodules', ...(pin.ref ? ['--branch', pin.ref] : []), '--', url, dest], { env });
    await runGit(['checkout', '--quiet', '--detach', pin.sha], { env, cwd: dest });
    return;
  }
  await runGit(['clone', '--depth', '1', '--no-recurse-submodules', ...(pin.ref ? ['--branch', pin.ref] : []), '--', url, dest], { env });
}

/** The commit checked out in `dir`, or undefined when it is not a git checkout. */
export async function headCommit(dir: string, env: GitOptions['env']): Promise<string | undefined> {
  try {
    // Only `dir` itself: a folder inside someone's repository is not that repository's commit.
    const sha = await runGit(['rev-parse', 'HEAD'], { env: { ...env, GIT_CEILING_DIRECTORIES: path.dirname(dir) }, cwd: dir });
    return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
  } catch {
    return undefined;
  }
}

/** A full commit id, which `sha` must be. */
export function isCommitSha(s: string): boolean {
  return /^[0-9a-f]{40}$/i.test(s);
}

function timeoutMs(env: GitOptions['env']): number {
  const n = Number(env.CLAUDE_CODE_PLUGIN_GIT_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_TIMEOUT_MS;
}

/** The caller's environment, with every prompt turned off: a clone that needs a password fails instead of waiting. */
function quietEnv(env: GitOptions['env']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  out.GIT_TERMINAL_PROMPT = '0';
  out.GCM_INTERACTIVE = 'never';
  out.LC_ALL = 'C';
  if (!out.GIT_SSH_COMMAND) out.GIT_SSH_COMMAND = 'ssh -o BatchMode=yes';
  return out;
}

/** git's lines that say what went wrong (its "Cloning into…" chatter left out). */
function gitMessage(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^Cloning into /.test(l));
  return lines.join(' / ');
}
