/**
 * Time from launch to the prompt box, in tmux at 120×40 as a person sees it: the pane is read every
 * few milliseconds until the app's status line is on screen. Also the CPU time the process used
 * by then (all its threads), which a busy machine inflates less than the wall time. Claude Code
 * is measured the same way, runs interleaved, when `claude` is on the PATH or CLAUDE_CODE_BIN names it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from './measure.js';

export interface Launch {
  name: string;
  /** The command line, as a shell reads it. */
  command: string;
  /** Texts on screen once the prompt box is drawn (any of them). */
  ready: string[];
}

export interface StartupFigure {
  name: string;
  medianMs: number;
  medianCpuMs: number;
  samples: number[];
  /** Runs whose prompt box never showed (or whose tmux server was gone). */
  failed: number;
}

export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Claude Code's binary, when installed: CLAUDE_CODE_BIN, `claude` on the PATH, or the package installed in /tmp/cc. */
export function claudeCode(): string | undefined {
  const named = process.env.CLAUDE_CODE_BIN;
  if (named && existsSync(named)) return named;
  const found = spawnSync('sh', ['-c', 'command -v claude'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  return existsSync(LOCAL_CLAUDE) ? LOCAL_CLAUDE : undefined;
}

/** Where `cd /tmp/cc && npm install @anthropic-ai/claude-code@2.1.332` puts its native binary. */
const LOCAL_CLAUDE = '/tmp/cc/node_modules/@anthropic-ai/claude-code/bin/claude.exe';

/**
 * A HOME and a project both programs start in without a question: the folder trusted, onboarding
 * done, the API key approved; nothing listens at the API's address.
 */
export function startupPlace(work: string): { home: string; project: string; env: string } {
  const home = path.join(work, 'home');
  const project = path.join(work, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const config = {
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: ['bench'], rejected: [] },
  };
  writeFileSync(path.join(home, '.claude.json'), JSON.stringify(config));
  const vars = {
    HOME: home,
    WICKET_HOME: path.join(home, '.wicket'),
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    IS_SANDBOX: '1',
    TERM: 'xterm-256color',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
  };
  return {
    home,
    project,
    env: Object.entries(vars)
      .map(([k, v]) => `${k}='${v}'`)
      .join(' '),
  };
}

/**
 * One launch, in a tmux server of its own: `kill-server` returns before the server has exited, and
 * a next run on the same socket could meet the dying server ("server exited unexpectedly") and throw.
 * A run whose server is gone, or whose prompt box never shows, counts as failed, not as a figure.
 */
function once(launch: Launch, place: { project: string; env: string }, socket: string): { ms: number; cpuMs: number } | undefined {
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const shell = `cd '${place.project}' && env -i ${place.env} ${launch.command}; sleep 60`;
  const t0 = performance.now();
  try {
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'bench', '-x', '120', '-y', '40', shell);
    while (performance.now() - t0 < 30_000) {
      const screen = tmux('capture-pane', '-p', '-t', 'bench');
      if (!launch.ready.some((r) => screen.includes(r))) {
        // A pause between looks: back to back, the tmux processes would take a core from the launch timed.
        Atomics.wait(PAUSE, 0, 0, 10);
        continue;
      }
      const ms = performance.now() - t0;
      return { ms, cpuMs: cpuOfPane(tmux('display', '-p', '-t', 'bench', '#{pane_pid}').trim()) };
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // gone already
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** CPU time (user + system, every thread) of the program the pane's shell runs. */
function cpuOfPane(shellPid: string): number {
  try {
    const pid = execFileSync('pgrep', ['-P', shellPid], { encoding: 'utf8' }).trim().split('\n')[0];
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return Number.NaN;
  }
}

/** Each launch `runs` times, interleaved, after one warm-up run each (caches, the file system). */
export function timeToPrompt(launches: Launch[], work: string, runs: number): StartupFigure[] {
  const place = startupPlace(work);
  let n = 0;
  const socket = () => `wicket-bench-${process.pid}-${n++}`;
  const samples = launches.map(() => ({ ms: [] as number[], cpu: [] as number[], failed: 0 }));
  for (const l of launches) once(l, place, socket());
  for (let i = 0; i < runs; i++) {
    launches.forEach((l, k) => {
      const r = once(l, place, socket());
      if (r) {
        samples[k]!.ms.push(r.ms);
        samples[k]!.cpu.push(r.cpuMs);
      } else samples[k]!.failed++;
    });
  }
  return launches.map((l, k) => ({
    name: l.name,
    medianMs: median(samples[k]!.ms),
    medianCpuMs: median(samples[k]!.cpu),
    samples: samples[k]!.ms.map(Math.round),
    failed: samples[k]!.failed,
  }));
}
