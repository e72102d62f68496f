/**
 * Bash: the shell window. The shell is a permission boundary that happens to be one tool: every
 * command line is parsed into the simple commands it runs before anything else is decided.
 */
import type { z } from 'zod';
import { appendFile } from '../../base/fs/lazy-fs.js';
import { deniedHostsSince, readSandboxSettings, sandboxLaunch, type SandboxLaunch } from '../../sandbox/index.js';
import { sessionEnvDir, sessionEnvPreamble } from './session-env.js';
import { adoptBackgroundTask, startBackgroundTask } from '../tasks/registry.js';
import { trackBashTask } from '../tasks/notify.js';
import { defineTool, lazySchema, type ToolContext } from '../../base/tool.js';
import { analyzeBash } from './analyze.js';
import type { Analysis } from './analysis.js';
import { changesDirectory, isDestructiveAnalysis, isReadOnlyAnalysis } from './classify.js';
import { bashAskPath, bashPermissionPaths, criticalRemoval, settingsPathDeny } from './file-access.js';
import { scriptsPathDeny, scriptsTreeRead } from './script-files.js';
import { treeReadDenial } from './tree-access.js';
import { bashDescription } from './description.js';
import { bashLimits, callTimeout, type BashLimits } from './limits.js';
import { matchBashRules } from './match.js';
import { initBashParser, isBashParserReady, parseScript } from './parse.js';
import { outputFilePath, runForeground, type Detached, type RunResult } from './run.js';
import { loadShellRunner } from './spawn.js';
import { startingCwd } from './cwd.js';
import { defaultVerdict, runsSandboxed, sandboxFor } from './permission.js';

export { initBashParser } from './parse.js';

export const bashInputSchema = lazySchema((z) =>
  z.strictObject({
    command: z.string().describe('The command to run'),
    timeout: z.number().optional().describe('Optional timeout in milliseconds (the default and the maximum are in the description)'),
    description: z.string().optional().describe('Clear, concise description of what this command does in 5-10 words, in active voice'),
    run_in_background: z.boolean().optional().describe('Set to true to run this command in the background. Use TaskOutput to read the output later.'),
    dangerouslyDisableSandbox: z.boolean().optional().describe('Set to true to run this command outside the sandbox (the user is asked every time)'),
  }),
);

export type BashInput = z.infer<typeof bashInputSchema>;

export interface BashOutput {
  /** Output for the model: stdout and stderr interleaved, cleaned, possibly head + tail. */
  stdout: string;
  /** Tail of the output for the person, colours kept. */
  display: string;
  exitCode: number | null;
  signal?: string;
  interrupted: boolean;
  timedOut: boolean;
  /** Full output when it was too long to inline (or always, for background tasks). */
  outputFile?: string;
  totalBytes: number;
  /** Directory the command ran in. */
  cwd: string;
  /** Set when the next call starts somewhere else. */
  newCwd?: string;
  notes: string[];
  sandboxed: boolean;
  backgroundTaskId?: string;
  /** Exit code 1 means "nothing found" here (grep, diff, test…), not failure. */
  benignExit?: boolean;
  /** The time limit it ran with. */
  timeoutMs?: number;
}

const MAX_COMMAND_BYTES = 100 * 1024;
const BENIGN_EXIT_ONE = new Set(['grep', 'egrep', 'fgrep', 'rg', 'find', 'diff', 'test', '[', 'cmp']);

/** The analysis, or undefined while the parser is still loading. */
function analysisOf(command: string): Analysis | undefined {
  return isBashParserReady() ? analyzeBash(command) : undefined;
}

export const bashTool = defineTool<BashInput, BashOutput>({
  name: 'Bash',
  description: bashDescription,
  inputSchema: bashInputSchema,

  isReadOnly(input) {
    const a = analysisOf(input.command);
    return a !== undefined && isReadOnlyAnalysis(a);
  },
  isConcurrencySafe(input) {
    const a = analysisOf(input.command);
    return a !== undefined && !input.run_in_background && isReadOnlyAnalysis(a) && !changesDirectory(a);
  },
  isDestructive(input) {
    const a = analysisOf(input.command);
    return a === undefined || isDestructiveAnalysis(a);
  },

  async validateInput(input, ctx) {
    const problem = inputProblem(input, bashLimits(ctx.env, ctx.settings));
    if (problem) return { ok: false, message: problem };
    await initBashParser();
    const decision = await sandboxFor(input, ctx);
    if (decision.kind === 'refused') return { ok: false, message: decision.reason };
    return { ok: true };
  },

  permissionPaths(input, ctx) {
    const a = analysisOf(input.command);
    return a && bashPermissionPaths(a, ctx);
  },

  askPath(input, ctx) {
    const a = analysisOf(input.command);
    return a && bashAskPath(a, ctx);
  },

  matchRules(input, rules, list, ctx) {
    const a = analysisOf(input.command);
    const hit = matchBashRules(input, a, rules, list, ctx);
    if (hit || list !== 'deny' || !a) return hit;
    return settingsPathDeny(a, ctx) ?? scriptsPathDeny(a, ctx);
  },

  requiresPerson(input, ctx) {
    const a = analysisOf(input.command);
    if (!a) return undefined;
    const critical = criticalRemoval(a, ctx);
    if (critical) return `${critical}; removing a critical path always needs a person`;
    // A repository's history holds what was ever committed of a denied file; the sandbox hides only the files.
    const history = treeReadDenial(a, ctx, true);
    if (history) return { reason: `${history.reason}. Name the paths after \`--\` (\`git diff -- src/\`), leaving the denied files out`, refuseInBypass: true };
    if (runsSandboxed(input, ctx)) return undefined;
    const tree = treeReadDenial(a, ctx) ?? scriptsTreeRead(a, ctx);
    if (!tree) return undefined;
    return {
      reason: `${tree.reason}. Read a narrower folder that leaves it out, or use the Grep tool, which never returns denied files`,
      refuseInBypass: true,
    };
  },

  async checkPermissions(input, ctx) {
    await initBashParser();
    return defaultVerdict(input, analyzeBash(input.command), ctx);
  },

  async *call(input, ctx) {
    await loadShellRunner();
    const decision = await sandboxFor(input, ctx);
    if (decision.kind === 'refused') throw new Error(decision.reason);
    const where = { ...ctx, cwd: startingCwd(ctx).cwd };
    const sandbox = decision.kind === 'sandboxed' ? await sandboxLaunch(readSandboxSettings(ctx.settings, ctx), where) : undefined;
    const hookEnv = sessionEnvPreamble(sessionEnvDir(ctx.wicketHome, ctx.sessionId));
    const launch = sandbox || hookEnv ? { prefix: sandbox?.prefix ?? [], preamble: `${sandbox?.preamble ?? ''}${hookEnv}` } : undefined;
    const notes = decision.kind === 'unsandboxed' ? [decision.note] : [];
    const outputFile = outputFilePath(ctx.wicketHome, ctx.sessionId, ctx.toolUseId);
    const limits = bashLimits(ctx.env, ctx.settings);
    const timeoutMs = callTimeout(input.timeout, limits);
    if (input.run_in_background) {
      const task = startBackgroundTask({
        command: input.command,
        cwd: where.cwd,
        env: ctx.env,
        outputFile,
        ...(input.description ? { description: input.description } : {}),
        ...(launch ? { prefix: launch.prefix, preamble: launch.preamble } : {}),
      });
      trackBashTask(task, ctx.backgroundTasks, ctx.toolUseId, timeoutMs);
      if (sandbox) void task.settled.then(() => finishSandbox(sandbox, outputFile));
      return backgroundOutput(task.id, outputFile, ctx.cwd, notes, sandbox !== undefined);
    }
    let result: RunResult | Detached;
    let after: string[] = [];
    try {
      result = yield* runForeground({
        command: input.command,
        timeoutMs,
        outputChars: limits.outputChars,
        cwdContext: ctx,
        env: ctx.env,
        signal: ctx.signal,
        outputFile,
        ...(launch ? { prefix: launch.prefix, preamble: launch.preamble } : {}),
      });
    } finally {
      if (sandbox && !('detached' in result!)) after = await sandbox.finish();
    }
    if ('detached' in result) return sentToBackground(result, input, ctx, outputFile, { sandbox, notes, timeoutMs });
    const { nextCwd, outputTooLarge, durationMs, ...rest } = result;
    if (outputTooLarge) notes.push('The command was stopped because its output grew past the limit.');
    if (sandbox) notes.push(...sandboxNotes(result.exitCode, Date.now() - durationMs), ...after);
    return {
      ...rest,
      notes: [...notes, ...rest.notes],
      sandboxed: sandbox !== undefined,
      timeoutMs,
      ...(nextCwd !== ctx.cwd ? { newCwd: nextCwd } : {}),
      ...(result.exitCode === 1 && isBenignExitOne(input.command) ? { benignExit: true } : {}),
    };
  },

  toModelResult(output, input) {
    if (output.backgroundTaskId) {
      return {
        content: `Command running in background with ID: ${output.backgroundTaskId}. Output is being written to: ${output.outputFile}. You will be told when it finishes: no need to poll. Use TaskOutput with task_id "${output.backgroundTaskId}" to read new output, and TaskStop to stop it.${noteText(output.notes)}`,
      };
    }
    const parts = [output.stdout];
    if (output.timedOut) parts.push(`Command timed out after ${output.timeoutMs ?? input.timeout} ms; its process group was stopped.`);
    else if (output.interrupted) parts.push('Command was interrupted; its process group was stopped.');
    parts.push(...output.notes);
    const failed = output.exitCode !== 0;
    if (failed) parts.push(`Exit code ${output.exitCode ?? `none (killed by ${output.signal ?? 'a signal'})`}`);
    const text = parts.filter((p) => p !== '').join('\n');
    return { content: text || '(no output)', isError: output.timedOut || output.interrupted || (failed && !output.benignExit) };
  },

  summary(input) {
    return input.description ? `${input.description}: ${oneLine(input.command)}` : oneLine(input.command);
  },

  display(output, input) {
    return {
      summary: output.backgroundTaskId ? `started background task ${output.backgroundTaskId}` : `exit ${output.exitCode ?? output.signal ?? '?'}`,
      preview: output.display,
      command: input.command,
      ...(output.outputFile ? { outputFile: output.outputFile } : {}),
    };
  },

  contextChange(output) {
    const next = output.newCwd;
    return next === undefined ? undefined : (state) => void (state.cwd = next);
  },

  /**
   * While the model thinks: the parser (about 40 ms to compile), a first parse (which compiles the
   * parser's own code, about 20 ms more) and the input schema.
   */
  async warmUp() {
    await initBashParser();
    parseScript('cd src && git status --short | head -n 5 > "$out" 2>&1');
    bashInputSchema.safeParse({ command: 'true' });
  },
});

export function inputProblem(input: BashInput, limits: BashLimits = bashLimits(undefined)): string | undefined {
  if (input.command.trim() === '') return 'command is empty: pass the shell command to run';
  if (input.command.includes('\0')) return 'command contains a NUL byte, which bash cannot run';
  if (Buffer.byteLength(input.command) > MAX_COMMAND_BYTES) {
    return `command is ${Buffer.byteLength(input.command)} bytes, over the ${MAX_COMMAND_BYTES}-byte limit: write a script file and run that`;
  }
  const t = input.timeout;
  if (t !== undefined && (!Number.isFinite(t) || t < 1 || t > limits.maxTimeoutMs)) {
    return `timeout must be between 1 and ${limits.maxTimeoutMs} ms (got ${t}; BASH_MAX_TIMEOUT_MS sets the maximum)`;
  }
  return undefined;
}

function sandboxNotes(exitCode: number | null, since: number): string[] {
  const notes: string[] = [];
  const blocked = deniedHostsSince(since);
  if (blocked.length) notes.push(`The sandbox blocked network access to ${blocked.join(', ')} (not in sandbox.network.allowedDomains).`);
  if (exitCode !== 0) {
    notes.push(
      'The command ran in the sandbox: writes outside the project and allowed paths, and network access except to allowed domains, are blocked. If it failed for that reason, retry with dangerouslyDisableSandbox: true (the user is asked).',
    );
  }
  return notes;
}

/** Ctrl+B: the running command became a background task; the call returns as a background start does. */
function sentToBackground(
  r: Detached,
  input: BashInput,
  ctx: ToolContext,
  outputFile: string,
  o: { sandbox: SandboxLaunch | undefined; notes: string[]; timeoutMs: number },
): BashOutput {
  const { proc, startedAt, cwd, notes } = r.detached;
  const task = adoptBackgroundTask(proc, { command: input.command, outputFile, startedAt, ...(input.description ? { description: input.description } : {}) });
  trackBashTask(task, ctx.backgroundTasks, ctx.toolUseId, o.timeoutMs);
  const sandbox = o.sandbox;
  if (sandbox) void task.settled.then(() => finishSandbox(sandbox, outputFile));
  const out = backgroundOutput(task.id, outputFile, cwd, [...o.notes, ...notes], sandbox !== undefined);
  return { ...out, notes: ['The user sent this command to the background (Ctrl+B) while it ran; it goes on there.', ...out.notes] };
}

/** A background command's sandbox is cleaned up when it ends; what that found goes to its output file. */
async function finishSandbox(sandbox: SandboxLaunch, outputFile: string): Promise<void> {
  const notes = await sandbox.finish().catch(() => []);
  if (notes.length) await appendFile(outputFile, `\n${notes.join('\n')}\n`).catch(() => undefined);
}

function backgroundOutput(id: string, outputFile: string, cwd: string, notes: string[], sandboxed: boolean): BashOutput {
  return {
    stdout: '',
    display: '',
    exitCode: null,
    interrupted: false,
    timedOut: false,
    outputFile,
    totalBytes: 0,
    cwd,
    notes,
    sandboxed,
    backgroundTaskId: id,
  };
}

function isBenignExitOne(command: string): boolean {
  const a = analysisOf(command);
  const last = a?.commands.filter((c) => c.topLevel || c.pipedFrom !== undefined).at(-1);
  const words = last?.words.map((w) => w.value) ?? [];
  if (words[0] === 'git') return words[1] === 'diff' || words[1] === 'grep';
  return BENIGN_EXIT_ONE.has(words[0] ?? '');
}

function noteText(notes: string[]): string {
  return notes.length ? `\n${notes.join('\n')}` : '';
}

function oneLine(command: string): string {
  const line = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
