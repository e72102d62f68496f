/**
 * A representative part of the Bash battery end to end: the built binary in print mode with
 * `--dangerously-skip-permissions`, the deny rules in the project's settings, the model replaced by
 * the fake Messages API asking for one Bash call. Each attempt: the victim stays, the secret never
 * appears in any request the API received. The controls, without the rules, show the same calls
 * do remove the victim and do send the secret. Needs `npm run build` first.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { runCli } from '../support/run-cli.js';
import { makeTmpProject } from '../support/tmp-project.js';

const SECRET = 'S3CR3T_e2e_b51c';
const RM = ['Bash(rm:*)'];
const READ = ['Read(./secret/**)'];

interface Run {
  requests: string;
  results: Array<{ content: string; isError: boolean }>;
  victim: boolean;
}

/** One print-mode run in which the model asks for `command`, then ends. */
async function runOnce(command: string, deny: readonly string[]): Promise<Run> {
  const server = await startFakeAnthropic();
  const project = await makeTmpProject({
    files: { V: 'victim\n', 'secret/key.txt': `${SECRET}\n`, 'src/a.txt': 'hello world\n' },
    settings: { permissions: { deny } },
  });
  try {
    server.script(reply().toolUse('Bash', { command }), reply().text('done'));
    const out = await runCli(['-p', 'go', '--dangerously-skip-permissions', '--output-format', 'json'], {
      cwd: project.dir,
      home: project.home,
      baseUrl: server.url,
      timeoutMs: 45_000,
    });
    expect(out.code, out.stderr).toBe(0);
    return { requests: JSON.stringify(server.requests), results: toolResults(server.messageRequests().at(-1)?.body.messages), victim: project.exists('V') };
  } finally {
    await server.close();
    await project.cleanup();
  }
}

function toolResults(messages: unknown): Run['results'] {
  const out: Run['results'] = [];
  for (const m of (messages ?? []) as Anthropic.MessageParam[]) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const content = typeof b.content === 'string' ? b.content : (b.content ?? []).map((x) => (x.type === 'text' ? x.text : '')).join('\n');
      out.push({ content, isError: b.is_error === true });
    }
  }
  return out;
}

const ATTEMPTS: Array<[string, readonly string[]]> = [
  [". /dev/stdin <<< 'rm V'", RM],
  ["bash -s <<< 'rm V'", RM],
  ['python3 -c "import os; os.system(\'rm V\')"', RM],
  ["echo V | xargs -I{} sh -c 'rm {}'", RM],
  ['grep -r S3CR3T .', READ],
  ['find . -type f -exec cat {} +', READ],
  ['tar cf - . | tar xOf -', READ],
  ['cat */*', READ],
];

describe.concurrent('the binary, --dangerously-skip-permissions, deny rules in settings', () => {
  it.each(ATTEMPTS)('%s is refused', async (command, deny) => {
    const run = await runOnce(command, deny);
    expect(run.victim, `the victim was removed by ${command}`).toBe(true);
    expect(run.requests.includes(SECRET), `the secret reached the API through ${command}`).toBe(false);
    expect(run.results).toHaveLength(1);
    expect(run.results[0]!.isError).toBe(true);
    expect(run.results[0]!.content).toMatch(/denied/);
  });

  it('controls: without the rules the same calls remove the victim and send the secret', async () => {
    const [removed, read] = await Promise.all([runOnce(". /dev/stdin <<< 'rm V'", []), runOnce('grep -r S3CR3T .', [])]);
    expect(removed.victim).toBe(false);
    expect(read.requests).toContain(SECRET);
  });

  it('a harmless tree read still runs and its output reaches the model', async () => {
    const run = await runOnce('grep -r hello src', [...RM, ...READ]);
    expect(run.results[0]!.content).toContain('src/a.txt:hello world');
    expect(run.requests.includes(SECRET)).toBe(false);
  });
});
