/**
 * Can the sandbox's programs run here? bubblewrap must create the namespaces the sandbox needs, and
 * socat (for `allowedDomains`) must start. Each check says what really went wrong: a program that
 * is not on PATH, one that cannot be executed, one that did not answer in time (a busy machine), or
 * one that ran and failed (with its own message). Only a success is remembered; a failure is
 * checked again on the next call (after a short pause), so a slow moment does not turn the sandbox
 * off for the rest of the session. The program's absolute path is resolved once and used for every
 * launch, so the sandbox never depends on the PATH a command was given.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { execaLib } from '../base/lib/execa-lib.js';

export type Availability = { ok: true; path: string } | { ok: false; reason: string };

const PROBE_TIMEOUT_MS = 15_000;
/** A failed check is trusted for this long before it is tried again. */
const RETRY_AFTER_MS = 2_000;

const good = new Map<string, Promise<Availability>>();
const bad = new Map<string, { at: number; result: Availability }>();

/** `name` as an absolute path: itself when it has a slash, else the first executable match on PATH. */
export function resolveProgram(name: string, pathEnv = process.env.PATH ?? ''): { path: string } | { missing: string } {
  if (name.includes('/')) return { path: path.resolve(name) };
  for (const dir of pathEnv.split(':').filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return { path: candidate };
      }
    } catch {
      // not here
    }
  }
  return { missing: `not found on PATH (${pathEnv || 'PATH is empty'})` };
}

/** Can bubblewrap create the namespaces we need here? */
export function bwrapAvailability(bwrapPath = 'bwrap'): Promise<Availability> {
  return check(`bwrap:${bwrapPath}`, () =>
    probe('bubblewrap', bwrapPath, ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', '--unshare-pid', '--die-with-parent', 'true'], {
      install: 'install it (apt-get install bubblewrap) or turn sandbox.enabled off',
      failing: 'bubblewrap cannot create the namespaces the sandbox needs (user namespaces may be disabled here)',
    }),
  );
}

/** socat carries connections from inside the sandbox to the domain proxy. */
export function socatAvailability(socatPath = 'socat'): Promise<Availability> {
  return check(`socat:${socatPath}`, () =>
    probe('socat', socatPath, ['-V'], {
      install: 'it is needed for sandbox.network.allowedDomains (apt-get install socat)',
      failing: 'socat does not run',
    }),
  );
}

function check(key: string, run: () => Promise<Availability>): Promise<Availability> {
  const known = good.get(key);
  if (known) return known;
  const failed = bad.get(key);
  if (failed && Date.now() - failed.at < RETRY_AFTER_MS) return Promise.resolve(failed.result);
  const pending = run().then((result) => {
    if (result.ok) bad.delete(key);
    else {
      good.delete(key);
      bad.set(key, { at: Date.now(), result });
    }
    return result;
  });
  good.set(key, pending);
  return pending;
}

async function probe(label: string, program: string, args: string[], say: { install: string; failing: string }): Promise<Availability> {
  const found = resolveProgram(program);
  if ('missing' in found) return { ok: false, reason: `${label} (${program}) is not installed: ${found.missing}; ${say.install}` };
  const file = found.path;
  let r: { exitCode?: number; code?: string; timedOut?: boolean; stderr?: unknown; shortMessage?: string };
  try {
    const { execa } = await execaLib();
    r = await execa(file, args, { reject: false, timeout: PROBE_TIMEOUT_MS, stdin: 'ignore', cwd: '/', extendEnv: true });
  } catch (err) {
    return { ok: false, reason: `${label} (${file}) could not be checked: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (r.exitCode === 0) return { ok: true, path: file };
  if (r.code === 'ENOENT') return { ok: false, reason: `${label} (${file}) is not installed: the file is gone or its interpreter is missing; ${say.install}` };
  if (r.code === 'EACCES' || r.code === 'EPERM') return { ok: false, reason: `${label} (${file}) cannot be executed (${r.code}): check its permissions` };
  if (r.timedOut)
    return {
      ok: false,
      reason: `${label} (${file}) did not answer within ${PROBE_TIMEOUT_MS / 1000} s (the machine may be overloaded); it is checked again on the next command`,
    };
  if (r.code) return { ok: false, reason: `${label} (${file}) could not be started: ${r.code} (${r.shortMessage ?? 'no message'})` };
  const said = String(r.stderr ?? '')
    .trim()
    .slice(0, 300);
  return { ok: false, reason: `${say.failing}: ${file} exited with ${r.exitCode ?? 'a signal'}${said ? `: ${said}` : ''}` };
}
