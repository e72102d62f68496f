/**
 * The OS sandbox (Linux, bubblewrap) for Bash and for stdio MCP servers. `decideSandbox` says
 * whether a call runs inside it, outside it, or not at all; `sandboxLaunch` (launch.ts) gives the
 * program prefix, shell preamble and the clean-up that put a command inside it; `sandboxProgram`
 * does the same for a long-running program such as an MCP server.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { wildcardMatch } from '../permissions/wildcard.js';
import { bwrapAvailability, socatAvailability } from './availability.js';
import { sandboxLaunch, SandboxRefusal, type SandboxContext } from './launch.js';
import type { SandboxSettings } from './settings.js';

export { readSandboxSettings, isDomainAllowed, domainMatches, type SandboxSettings } from './settings.js';
export { bwrapAvailability, socatAvailability } from './availability.js';
export { sandboxLaunch, deniedHostsSince, stopSandboxProxy, SandboxRefusal, type SandboxContext, type SandboxLaunch } from './launch.js';
export { shellQuote } from './network.js';

export type SandboxDecision = { kind: 'off' } | { kind: 'sandboxed' } | { kind: 'unsandboxed'; note: string } | { kind: 'refused'; reason: string };

export interface SandboxRequest {
  dangerouslyDisableSandbox?: boolean | undefined;
  /** The commands the line runs, as text (for excludedCommands). */
  commands: string[];
}

export async function decideSandbox(s: SandboxSettings, req: SandboxRequest): Promise<SandboxDecision> {
  if (!s.enabled) return { kind: 'off' };
  if (req.dangerouslyDisableSandbox) {
    if (!s.allowUnsandboxedCommands) {
      return { kind: 'refused', reason: 'sandbox.allowUnsandboxedCommands is false: commands may not run outside the sandbox' };
    }
    return { kind: 'unsandboxed', note: 'ran outside the sandbox (dangerouslyDisableSandbox)' };
  }
  if (isExcludedCommand(req.commands, s.excludedCommands)) return { kind: 'unsandboxed', note: 'ran outside the sandbox (sandbox.excludedCommands)' };
  return availableOr(s);
}

/** Sandboxed when it can start; else refused, or (failIfUnavailable false) unsandboxed with a note. */
async function availableOr(s: SandboxSettings): Promise<SandboxDecision> {
  const problem = await unavailability(s);
  if (!problem) return { kind: 'sandboxed' };
  if (!s.failIfUnavailable)
    return { kind: 'unsandboxed', note: `the sandbox is unavailable (${problem}); ran without it because sandbox.failIfUnavailable is false` };
  return {
    kind: 'refused',
    reason: `sandbox.enabled is true but the sandbox cannot start: ${problem}. Nothing was run. Set sandbox.failIfUnavailable to false to run commands without it.`,
  };
}

async function unavailability(s: SandboxSettings): Promise<string | undefined> {
  if (process.platform !== 'linux') return `the sandbox needs Linux with bubblewrap (this is ${process.platform})`;
  const bwrap = await bwrapAvailability(s.bwrapPath);
  if (!bwrap.ok) return bwrap.reason;
  if (s.allowedDomains.length) {
    const socat = await socatAvailability(s.socatPath);
    if (!socat.ok) return socat.reason;
  }
  return undefined;
}

/** `docker`, `docker *`, `docker:*`, `npm run e2e*`: prefixes with word boundary, `*` anywhere. */
export function isExcludedCommand(commands: string[], excluded: string[]): boolean {
  return excluded.some((pattern) => {
    const p = pattern.trim().replace(/(:\*| \*)$/, '');
    return commands.some((c) => wildcardMatch(p, c) || wildcardMatch(`${p} *`, c));
  });
}

/** A program (an MCP server) as it is to be started: in the sandbox, or as it was. */
export interface SandboxedProgram {
  command: string;
  args: string[];
  /** Set when it runs in the sandbox. */
  sandboxed: boolean;
  /** Why it runs outside although the sandbox is on (a note for the person). */
  note?: string;
  /** Once the program has exited: clean up (mount points, configuration it created). */
  finish(): Promise<string[]>;
}

/**
 * Start `command args` inside the sandbox, as Bash's commands are (same masks, same write limits,
 * same network proxy). `optOut` is the entry's own `"sandbox": false`; it is refused when
 * sandbox.allowUnsandboxedCommands is false. Throws SandboxRefusal when it may not run at all.
 */
export async function sandboxProgram(
  s: SandboxSettings,
  ctx: SandboxContext,
  program: { command: string; args: string[]; optOut?: boolean },
): Promise<SandboxedProgram> {
  const as = { command: program.command, args: program.args, sandboxed: false, finish: async () => [] as string[] };
  if (!s.enabled) return as;
  if (program.optOut) {
    if (!s.allowUnsandboxedCommands)
      throw new SandboxRefusal('its entry says "sandbox": false, but sandbox.allowUnsandboxedCommands is false: nothing may run outside the sandbox');
    return { ...as, note: 'runs outside the sandbox ("sandbox": false)' };
  }
  const decision = await availableOr(s);
  if (decision.kind === 'refused') throw new SandboxRefusal(decision.reason);
  if (decision.kind === 'unsandboxed') return { ...as, note: decision.note };
  const launch = await sandboxLaunch(s, { ...ctx, programDirs: programDirs(program, ctx.cwd) });
  const [bwrap, ...bwrapArgs] = launch.prefix;
  const inner = launch.preamble
    ? ['bash', '-c', `${launch.preamble}exec "$@"`, 'wicket-sandbox', program.command, ...program.args]
    : [program.command, ...program.args];
  return { command: bwrap!, args: [...bwrapArgs, ...inner], sandboxed: true, finish: launch.finish };
}

/**
 * The folders a program needs to start: for its command and each argument naming an existing file,
 * the nearest folder above it with a package.json (where Node looks for its modules), else the
 * file's own folder. Shown read-only: the sandbox otherwise hides a program kept under /tmp.
 */
export function programDirs(program: { command: string; args: readonly string[] }, cwd: string): string[] {
  const out = new Set<string>();
  for (const word of [program.command, ...program.args]) {
    if (!word.includes('/') || word.startsWith('-')) continue;
    const file = path.resolve(cwd, word);
    if (!isFile(file)) continue;
    out.add(packageDir(path.dirname(file)) ?? path.dirname(file));
  }
  return [...out];
}

/** The nearest folder with a package.json, short of a top folder such as /tmp itself. */
function packageDir(dir: string): string | undefined {
  for (let d = dir; path.dirname(path.dirname(d)) !== path.dirname(d); d = path.dirname(d)) {
    if (existsSync(path.join(d, 'package.json'))) return d;
  }
  return undefined;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
