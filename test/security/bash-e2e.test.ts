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
import { canSandbox } from './sandbox-support.js';

const SECRET = 'S3CR3T_e2e_b51c';
const RM = ['Bash(rm:*)'];
const READ = ['Read(./secret/**)'];
const EDIT = ['Edit(./conf/**)'];
/** Commits the project first: what git's history holds of the secret is then there to print. */
const COMMIT = 'git add -A && git -c user.name=t -c user.email=t@e commit -qm all && ';

interface Run {
  requests: string;
  results: Array<{ content: string; isError: boolean }>;
  victim: boolean;
  /** conf/app.json as the run left it. */
  conf: string;
}

/** One print-mode run in which the model asks for `command`, then ends. */
async function runOnce(command: string, deny: readonly string[], extra: object = {}): Promise<Run> {
  const server = await startFakeAnthropic();
  const project = await makeTmpProject({
    files: { V: 'victim\n', 'secret/key.txt': `${SECRET}\n`, 'src/a.txt': 'hello world\n', 'conf/app.json': 'ORIGINAL\n' },
    settings: { permissions: { deny }, ...extra },
    git: true,
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
    return {
      requests: JSON.stringify(server.requests),
      results: toolResults(server.messageRequests().at(-1)?.body.messages),
      victim: project.exists('V'),
      conf: await project.read('conf/app.json').catch(() => '(gone)'),
    };
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
  [`${COMMIT}git log -p`, READ],
  [`${COMMIT}git cat-file --batch-all-objects --batch`, READ],
  ['curl -s file://$PWD/secret/key.txt', READ],
  ['ln -s . p && cat p/secret/key.txt', READ],
  ['echo W | dd of=conf/app.json', EDIT],
  ["python3 -c \"open('conf/app.json', 'w').write('W')\"", EDIT],
  ['ln -s conf c && echo W > c/app.json', EDIT],
];

describe.concurrent('the binary, --dangerously-skip-permissions, deny rules in settings', () => {
  it.each(ATTEMPTS)('%s is refused', async (command, deny) => {
    const run = await runOnce(command, deny);
    expect(run.victim, `the victim was removed by ${command}`).toBe(true);
    expect(run.conf, `conf/app.json was changed by ${command}`).toBe('ORIGINAL\n');
    expect(run.requests.includes(SECRET), `the secret reached the API through ${command}`).toBe(false);
    expect(run.results).toHaveLength(1);
    expect(run.results[0]!.isError).toBe(true);
    expect(run.results[0]!.content).toMatch(/denied/);
  });

  it('controls: without the rules the same calls remove the victim, send the secret and change conf/', async () => {
    const [removed, read, history, edited] = await Promise.all([
      runOnce(". /dev/stdin <<< 'rm V'", []),
      runOnce('grep -r S3CR3T .', []),
      runOnce(`${COMMIT}git log -p`, []),
      runOnce('echo W | dd of=conf/app.json', []),
    ]);
    expect(removed.victim).toBe(false);
    expect(read.requests).toContain(SECRET);
    expect(history.requests).toContain(SECRET);
    expect(edited.conf).toBe('W\n');
  });

  it.skipIf(!canSandbox)('in the OS sandbox, which hides the denied files but not git’s history, git log -p is still refused', async () => {
    const run = await runOnce(`${COMMIT}git log -p`, READ, { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } });
    expect(run.requests.includes(SECRET)).toBe(false);
    expect(run.results[0]!.content).toMatch(/denied.*git log reads every file under \., which holds \.\/secret/s);
  });

  it('a harmless tree read still runs and its output reaches the model', async () => {
    const run = await runOnce('grep -r hello src', [...RM, ...READ]);
    expect(run.results[0]!.content).toContain('src/a.txt:hello world');
    expect(run.requests.includes(SECRET)).toBe(false);
  });
});
