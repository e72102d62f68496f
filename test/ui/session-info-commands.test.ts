import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTotals } from '../../src/core/run-prompt.js';
import type { ApiMessage } from '../../src/base/events.js';
import {
  agentsCommand,
  contextCommand,
  conversationText,
  doctorCommand,
  exportCommand,
  hooksCommand,
  memoryCommand,
  planCommand,
  renameCommand,
  tasksCommand,
} from '../../src/ui/commands/session-info.js';
import type { SessionControl } from '../../src/ui/commands/types.js';
import { startBackgroundTask, stopBackgroundTask } from '../../src/tools/tasks/registry.js';
import { loadShellRunner } from '../../src/tools/bash/spawn.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-infocmd-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const conversation: ApiMessage[] = [
  { role: 'user', content: 'read a.txt' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/p/a.txt' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '1\talpha' }] },
  { role: 'assistant', content: [{ type: 'text', text: 'It says alpha.' }] },
];

function session(extra: Partial<SessionControl> = {}): SessionControl {
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const options = {
    model: 'claude-sonnet-4-6',
    projectRoot: project,
    homeDir: path.join(dir, 'home'),
    wicketHome: path.join(dir, 'home', '.wicket'),
    additionalDirs: [],
    env: { ANTHROPIC_API_KEY: 'k', PATH: process.env.PATH },
    settings: {},
    system: [{ type: 'text', text: 'x'.repeat(4000) }],
    tools: [],
    state: { cwd: project },
    permission: { mode: 'default', rules: {} },
  };
  return {
    options,
    loaded: { hooks: [], warnings: [], sources: [] },
    cwd: project,
    configDir: path.join(dir, 'home', '.claude'),
    totals: emptyTotals(),
    traces: [],
    commands: [],
    messageCount: conversation.length,
    messages: conversation,
    ...extra,
  } as unknown as SessionControl;
}

const text = async (cmd: { run: SlashCommandRun }, args: string, s: SessionControl) => ((await cmd.run(args, s)) as { text: string }).text;
type SlashCommandRun = (args: string, s: SessionControl) => unknown;

describe('session commands', () => {
  it('/context shows the window use, by part, estimated before the first request', async () => {
    const out = await text(contextCommand, '', session());
    expect(out).toMatch(/Context [█░]{20} \d+% of 200\.0k/);
    expect(out).toContain('estimated');
    expect(out).toMatch(/System prompt\s+1\.0k tokens/);
    expect(out).toContain('Messages (4)');
    const measured = session();
    measured.options.state.contextTokens = 50_000;
    expect(await text(contextCommand, '', measured)).toContain('25% of 200.0k (50.0k tokens at the last request)');
  });

  it('/export writes the conversation as text, to a file named or dated', async () => {
    const s = session();
    expect(await text(exportCommand, 'talk.txt', s)).toContain(path.join(s.cwd, 'talk.txt'));
    const saved = readFileSync(path.join(s.cwd, 'talk.txt'), 'utf8');
    expect(saved).toBe(conversationText(conversation));
    expect(saved).toContain('> read a.txt');
    expect(saved).toContain('● Read({"file_path":"/p/a.txt"})');
    expect(saved).toContain('⎿ 1\talpha');
    expect(await text(exportCommand, '', s)).toMatch(/\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}-conversation\.txt/);
    expect(await text(exportCommand, '', session({ messages: [] }))).toBe('Nothing to export yet.');
  });

  it('/memory says when there are no instruction files; /hooks and /agents list what is configured', async () => {
    const s = session();
    expect(await text(memoryCommand, '', s)).toContain('Instruction files are off in this session');
    expect(await text(hooksCommand, '', s)).toContain('No hooks configured');
    const hooked = session({
      loaded: {
        hooks: [{ event: 'PreToolUse', matcher: 'Bash', hooks: [{ type: 'command', command: 'check.sh' }], source: 'projectSettings' }],
        warnings: [],
      } as never,
    });
    expect(await text(hooksCommand, '', hooked)).toContain('PreToolUse [Bash]  check.sh  — projectSettings');
    expect(await text(agentsCommand, '', s)).toMatch(/general-purpose\s+builtin/);
  });

  it('/plan switches to plan mode, and sends the task when one is given', async () => {
    const s = session();
    expect(await planCommand.run('', s)).toMatchObject({ kind: 'info' });
    expect(s.options.permission.mode).toBe('plan');
    expect(await planCommand.run('refactor the parser', session())).toEqual({ kind: 'prompt', text: 'refactor the parser' });
  });

  it('/rename names a saved session; /tasks and /doctor report', async () => {
    const names: string[] = [];
    expect(await text(renameCommand, 'parser work', session({ rename: (n) => names.push(n) }))).toBe('Session named "parser work"');
    expect(names).toEqual(['parser work']);
    expect(await renameCommand.run('x', session())).toMatchObject({ tone: 'warning' });
    expect(await text(tasksCommand, '', session())).toBe('No background tasks.');
    const doctor = await text(doctorCommand, '', session());
    expect(doctor).toContain(`✓ Node ${process.versions.node}`);
    expect(doctor).toContain('✓ credentials from ANTHROPIC_API_KEY');
    expect(doctor).toMatch(/✓ ripgrep at /);
  });

  it('/tasks stop <id> stops a running task as the person, and says so when there is nothing to stop', async () => {
    await loadShellRunner();
    const task = startBackgroundTask({ command: 'sleep 30', cwd: dir, env: process.env, outputFile: path.join(dir, 'out.txt'), description: 'long wait' });
    try {
      expect(await text(tasksCommand, '', session())).toContain(`${task.id}  shell  running   long wait`);
      expect(await text(tasksCommand, 'stop bnope', session())).toBe(`No task bnope. Running: ${task.id}`);
      expect(await text(tasksCommand, `stop ${task.id}`, session())).toBe(`Stopped task ${task.id} (long wait).`);
      expect(task).toMatchObject({ status: 'killed', stoppedBy: 'person' });
      expect(await text(tasksCommand, `stop ${task.id}`, session())).toBe(`Task ${task.id} (long wait) is not running: killed.`);
      expect(await tasksCommand.run('frobnicate', session())).toMatchObject({ tone: 'warning' });
    } finally {
      await stopBackgroundTask(task.id, 100);
    }
  });
});
