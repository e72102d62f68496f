/**
 * `wicket rules test` over a project with 100 saved sessions of 200 tool calls each (20,000 calls,
 * Claude Code's transcript format, a fifth of them with wicket's gate traces): the built binary's wall
 * time, median of 3 runs, against the 5 s budget. Half the calls repeat an earlier one; the rest
 * are new commands and paths. Needs `npm run build` (npm run bench does it).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectSlug } from '../src/session/paths.js';
import { median } from './measure.js';

const SESSIONS = 100;
const CALLS = 200;
const BUDGET_MS = 5000;
const TIME = '/usr/bin/time';
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'wicket.js');

const COMMANDS = [
  (i: number) => `npm run test:unit -- --grep case${i}`,
  (i: number) => `git log --oneline -n ${i}`,
  (i: number) => `git diff HEAD~${i % 20}`,
  (i: number) => `rm -rf build/tmp${i}`,
  (i: number) => `ls -la src/dir${i % 30}`,
  (i: number) => `cat src/file${i}.ts | grep -n TODO`,
  (i: number) => `npx tsc --noEmit -p tsconfig.${i % 5}.json`,
  (i: number) => `make target${i % 40} && echo done`,
  (i: number) => `curl -s https://example.com/api/${i} > out${i}.json`,
  (i: number) => `python3 scripts/gen.py --seed ${i}`,
];

function call(project: string, s: number, i: number): { name: string; input: Record<string, unknown> } {
  // Half the calls repeat one of the first 50 of their kind.
  const n = i % 2 === 0 ? i % 50 : s * CALLS + i;
  switch (i % 5) {
    case 0:
    case 1:
    case 2:
      return { name: 'Bash', input: { command: COMMANDS[n % COMMANDS.length]!(n), description: 'step' } };
    case 3:
      return { name: 'Read', input: { file_path: path.join(project, `src/file${n}.ts`) } };
    default:
      return { name: 'Edit', input: { file_path: path.join(project, `src/file${n}.ts`), old_string: 'a', new_string: 'b' } };
  }
}

function session(project: string, s: number): string {
  const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
  const lines: string[] = [];
  let parent: string | null = null;
  const rec = (r: Record<string, unknown>) => {
    const uuid = `${id.slice(0, 24)}${String(lines.length).padStart(12, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, ...r, uuid, timestamp: new Date().toISOString(), cwd: project, sessionId: id }));
    parent = uuid;
  };
  rec({ type: 'user', message: { role: 'user', content: 'work' } });
  for (let i = 0; i < CALLS; i++) {
    const c = call(project, s, i);
    const tid = `toolu_${s}_${i}`;
    rec({ type: 'assistant', message: { role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: tid, ...c }] } });
    rec({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tid, content: 'ok' }] },
      permissionDecision: { decision: 'accept', source: i % 3 ? 'user' : 'config' },
    });
    if (s % 5 === 0)
      lines.push(
        JSON.stringify({
          type: 'wicket-gate-trace',
          toolUseId: tid,
          toolName: c.name,
          trace: [{ gate: 'permission', verdict: 'allowed', detail: 'asked (tool default) → answer: yes', durationMs: 0 }],
        }),
      );
  }
  return `${id}\n${lines.join('\n')}\n`;
}

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-rules-bench-')));
try {
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const dir = path.join(home, '.claude', 'projects', projectSlug(project));
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm *)'], allow: ['Bash(git log:*)'] } }));
  for (let s = 0; s < SESSIONS; s++) {
    const [id, text] = session(project, s).split(/\n(.*)/s) as [string, string];
    writeFileSync(path.join(dir, `${id}.jsonl`), text);
  }
  const env = { PATH: process.env.PATH, HOME: home, WICKET_HOME: path.join(home, '.wicket'), CI: 'true' };
  const times: number[] = [];
  const cpus: number[] = [];
  let out = '';
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    // GNU time gives the CPU the run took: on a loaded machine the wall time waits for the other processes too.
    const res = spawnSync(TIME, ['-f', 'CPU %U %S', process.execPath, BIN, 'rules', 'test', '--json'], {
      cwd: project,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    times.push(performance.now() - t0);
    if (res.status !== 0 && res.status !== 1) throw new Error(`wicket rules test exited with ${res.status}: ${res.stderr}`);
    const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(res.stderr);
    cpus.push(m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN);
    out = res.stdout;
  }
  const report = JSON.parse(out) as { calls: number; sessions: number; flips: unknown[] };
  const ms = median(times);
  const cpu = median(cpus);
  console.log(
    `rules test: ${report.calls} calls in ${report.sessions} sessions, ${report.flips.length} flips: ${Math.round(ms)} ms wall, ${Math.round(cpu)} ms CPU ` +
      `(median of 3; budget ${BUDGET_MS} ms) ${ms < BUDGET_MS ? 'ok' : cpu < BUDGET_MS ? 'OVER BUDGET in wall time only (a loaded machine: see the CPU time)' : 'OVER BUDGET'}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
