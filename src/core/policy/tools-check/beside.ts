/**
 * The third question: a call beside another. A tool that says the sample input only reads and may
 * run beside others is run in the scratch copy alone, then twice at once through the scheduler: the
 * three results must be the same and the copy unchanged. A writer's calls, through the scheduler,
 * must never run at the same time. A tool that says it writes and is concurrency-safe fails, unless
 * its calls are its own sub-agent's (each goes through the gates and the scheduler again).
 */
import { errorMessage } from '../../../base/errors.js';
import type { Tool } from '../../../base/tool.js';
import { probeRunner, probeTool, rulesWith } from './probe.js';
import { short, type Answer, type CheckSetup } from './questions.js';
import { resultText, runBatch } from './run-calls.js';
import type { Sample } from './samples.js';
import { treeHash } from './scratch.js';

/** The tool's own word; false when it cannot say. */
function says(f: () => boolean): boolean {
  try {
    return f() === true;
  } catch {
    return false;
  }
}

export async function askBeside(tool: Tool, sample: Sample, setup: CheckSetup & { runMcp: boolean }): Promise<Answer> {
  try {
    return await beside(tool, sample, setup);
  } catch (err) {
    return { status: 'FAIL', reason: short(`the check broke: ${errorMessage(err)}`) };
  }
}

async function beside(tool: Tool, sample: Sample, setup: CheckSetup & { runMcp: boolean }): Promise<Answer> {
  const input = sample.input;
  const readOnly = says(() => tool.isReadOnly(input));
  const safe = says(() => tool.isConcurrencySafe(input));
  if (!readOnly && safe) {
    if (sample.delegates) return { status: 'ok', reason: 'batched by design: each call of its sub-agent goes through the gates and the scheduler' };
    return { status: 'FAIL', reason: 'says it writes, yet concurrency-safe: the scheduler would run it beside other calls' };
  }
  const parts: string[] = [];
  if (readOnly && safe) {
    const why =
      sample.noRun ??
      (tool.mcpServer && !setup.runMcp ? 'its server runs in the real project here; `wicket tools check` runs it in a scratch copy' : undefined);
    if (why) parts.push(`read-only, not run: ${why}`);
    else {
      const a = await twiceAtOnce(tool, input, setup);
      if (a.status === 'FAIL') return a;
      parts.push(a.reason);
    }
  }
  const writer = sample.writer ?? (safe ? undefined : input);
  if (writer !== undefined) {
    const w = await writersApart(tool, writer, setup);
    if (w.status === 'FAIL') return w;
    parts.push(w.reason);
  }
  return { status: 'ok', reason: parts.join('; ') };
}

async function twiceAtOnce(tool: Tool, input: unknown, setup: CheckSetup): Promise<Answer> {
  const before = treeHash(setup.scratch.project);
  const run = async (n: number) => {
    const probe = probeTool(tool, 'real');
    const env = probeRunner(setup.scratch, probe.tool, { mode: 'bypassPermissions', rules: rulesWith(), env: setup.env });
    const r = await runBatch(
      env,
      tool.name,
      Array.from({ length: n }, () => input),
    );
    return { ...r, probe };
  };
  const alone = await run(1);
  const both = await run(2);
  if (alone.timedOut || both.timedOut) return { status: 'FAIL', reason: 'did not finish within the time limit' };
  const after = treeHash(setup.scratch.project);
  if (after !== before) return { status: 'FAIL', reason: 'says it only reads, but the scratch copy changed' };
  const [one, two] = both.outcomes.map(resultText);
  const first = resultText(alone.outcomes[0]!);
  if (one !== first || two !== first) return { status: 'FAIL', reason: 'run twice at once, the results differ from its result alone' };
  const where = tool.mcpServer ? ' (the server’s own writes outside the copy are not seen)' : '';
  const together = both.probe.maxAtOnce > 1 ? 'ran twice at once' : 'ran twice in one batch';
  return { status: 'ok', reason: `read-only: ${together}, same result as alone, nothing written${where}` };
}

async function writersApart(tool: Tool, input: unknown, setup: CheckSetup): Promise<Answer> {
  if (says(() => tool.isConcurrencySafe(input))) return { status: 'FAIL', reason: 'its writing input is said to be concurrency-safe' };
  const probe = probeTool(tool, 'wait', { skipValidation: true });
  const env = probeRunner(setup.scratch, probe.tool, { mode: 'bypassPermissions', rules: rulesWith(), env: setup.env, approve: true });
  await runBatch(env, tool.name, [input, input]);
  if (probe.calls !== 2) return { status: 'FAIL', reason: `two writing calls in one message: ${probe.calls} reached execution, not 2` };
  if (probe.maxAtOnce > 1) return { status: 'FAIL', reason: 'two writing calls in one message ran at the same time' };
  const what = says(() => tool.isReadOnly(input)) ? 'not concurrency-safe' : 'writes';
  return { status: 'ok', reason: `${what}: never batched (two calls in one message ran one after the other)` };
}
