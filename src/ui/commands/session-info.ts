/**
 * Slash commands that show or change the session: /context /export /hooks /agents /tasks
 * /plan /rename /doctor.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { ApiMessage } from '../../base/events.js';
import { contextWindowOf } from '../../base/models.js';
import { describeHandler, isAsyncHandler } from '../../base/hook-config.js';
import { loadAgentDefinitions } from '../../tools/agent/definitions.js';
import { getBackgroundTask, listBackgroundTasks, stopBackgroundTask, taskLabel } from '../../tools/tasks/registry.js';
import { bwrapAvailability } from '../../sandbox/bwrap.js';
import { requestParts } from '../../core/model-request.js';
import { requireModule } from '../../base/lib/import-module.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';
import { memoryCommand } from './memory.js';

/** Characters per token, for estimates where the API's count is not at hand. */
const CHARS_PER_TOKEN = 4;

const tokens = (chars: number) => Math.round(chars / CHARS_PER_TOKEN);
const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

function messageChars(messages: readonly ApiMessage[]): number {
  return messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content).length), 0);
}

export const contextCommand: SlashCommand = {
  name: 'context',
  description: 'How full the context window is, and with what',
  source: 'builtin',
  run(_args, s) {
    const o = s.options;
    const window = contextWindowOf(o.model);
    const system = tokens(o.system.reduce((n, b) => n + b.text.length, 0));
    const tools = tokens(JSON.stringify(requestParts([], o).tools).length);
    const conversation = tokens(messageChars(s.messages ?? []));
    const estimate = system + tools + conversation;
    const measured = o.state.contextTokens;
    const used = measured ?? estimate;
    const pct = Math.min(100, Math.round((used / window) * 100));
    const bar = '█'.repeat(Math.round(pct / 5)) + '░'.repeat(20 - Math.round(pct / 5));
    const row = (label: string, n: number) => `  ${label.padEnd(14)}${k(n).padStart(7)} tokens (${((n / window) * 100).toFixed(1)}%)`;
    const lines = [
      `Context ${bar} ${pct}% of ${k(window)} (${k(used)} tokens${measured === undefined ? ', estimated' : ' at the last request'})`,
      row('System prompt', system),
      row(`Tools (${o.tools.length})`, tools),
      row(`Messages (${s.messageCount})`, conversation),
      row('Free', Math.max(0, window - used)),
      '/compact frees room by summarising the conversation.',
    ];
    return { kind: 'info', text: lines.join('\n') };
  },
};

/** A conversation as plain text: who said what, tool calls by name and input, results cut short. */
export function conversationText(messages: readonly ApiMessage[]): string {
  const out: string[] = [];
  for (const m of messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    for (const b of blocks) {
      if (b.type === 'text') out.push(`${m.role === 'user' ? '> ' : ''}${b.text}`);
      else if (b.type === 'tool_use') out.push(`● ${b.name}(${JSON.stringify(b.input)})`);
      else if (b.type === 'tool_result') {
        const text = typeof b.content === 'string' ? b.content : b.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
        out.push(`  ⎿ ${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}`.replace(/\n/g, '\n    '));
      }
    }
  }
  return `${out.join('\n\n')}\n`;
}

export const exportCommand: SlashCommand = {
  name: 'export',
  argumentHint: '[file]',
  description: 'Save the conversation as text',
  source: 'builtin',
  async run(args, s) {
    if (!s.messages?.length) return { kind: 'info', text: 'Nothing to export yet.' };
    const stamp = new Date().toISOString().replace(/[:T]/g, '-').slice(0, 19);
    const file = path.resolve(s.options.state.cwd, args.trim() || `${stamp}-conversation.txt`);
    try {
      await writeFileAtomic(file, conversationText(s.messages));
      return { kind: 'info', text: `Conversation saved to ${file}` };
    } catch (err) {
      return { kind: 'info', tone: 'error', text: `Could not write ${file}: ${(err as Error).message}` };
    }
  },
};

export const hooksCommand: SlashCommand = {
  name: 'hooks',
  description: 'The hooks configured in the settings',
  source: 'builtin',
  run(_args, s) {
    const groups = s.loaded.hooks ?? [];
    if (!groups.length) return { kind: 'info', text: 'No hooks configured. They go under "hooks" in .claude/settings.json.' };
    const lines = groups.flatMap((g) =>
      g.hooks.map((h) => `  ${g.event}${g.matcher ? ` [${g.matcher}]` : ''}  ${describeHandler(h)}${isAsyncHandler(h) ? ' (async)' : ''}  — ${g.source}`),
    );
    return { kind: 'info', text: ['Hooks (settings order):', ...lines].join('\n') };
  },
};

export const agentsCommand: SlashCommand = {
  name: 'agents',
  description: 'The sub-agent types the Agent tool can start',
  source: 'builtin',
  run(_args, s) {
    const defs = loadAgentDefinitions(s.options.projectRoot, s.configDir);
    const lines = defs.map((d) => {
      const notes = [d.model && `model ${d.model}`, d.color && `color ${d.color}`, d.background && 'background', d.memory && `memory: ${d.memory}`].filter(
        Boolean,
      );
      return `  ${d.name.padEnd(20)} ${d.source.padEnd(8)} ${d.description}${notes.length ? ` (${notes.join(', ')})` : ''}`;
    });
    return { kind: 'info', text: ['Agents (files in .claude/agents or ~/.claude/agents add more):', ...lines].join('\n') };
  },
};

export const tasksCommand: SlashCommand = {
  name: 'tasks',
  aliases: ['bashes'],
  argumentHint: '[stop <id>]',
  description: 'Background commands and agents, and their state; /tasks stop <id> stops one',
  source: 'builtin',
  async run(args) {
    const [verb, id] = args.trim().split(/\s+/);
    if (verb) return verb === 'stop' || verb === 'kill' ? stopTask(id) : { kind: 'info', tone: 'warning', text: 'Usage: /tasks, or /tasks stop <id>' };
    const tasks = listBackgroundTasks();
    if (!tasks.length) return { kind: 'info', text: 'No background tasks.' };
    const lines = tasks.map((t) => {
      const exit = t.kind === 'bash' && t.exitCode !== null ? ` (exit ${t.exitCode})` : '';
      return `  ${t.id}  ${t.kind === 'agent' ? 'agent' : 'shell'}  ${t.status.padEnd(9)} ${taskLabel(t)}${exit}`;
    });
    const running = tasks.some((t) => t.status === 'running');
    const how = running ? '/tasks stop <id> stops one; the model is told' : 'the model reads them with TaskOutput';
    return { kind: 'info', text: [`Background tasks (${how}):`, ...lines].join('\n') };
  },
};

/** The person stops a task; its notice tells the model who stopped it. */
async function stopTask(id: string | undefined): Promise<CommandResult> {
  const task = id ? getBackgroundTask(id) : undefined;
  if (!task) {
    const running = listBackgroundTasks()
      .filter((t) => t.status === 'running')
      .map((t) => t.id);
    return {
      kind: 'info',
      tone: 'warning',
      text: `${id ? `No task ${id}` : 'Give a task id'}.${running.length ? ` Running: ${running.join(', ')}` : ' No task is running.'}`,
    };
  }
  if (task.status !== 'running') return { kind: 'info', text: `Task ${task.id} (${taskLabel(task)}) is not running: ${task.status}.` };
  await stopBackgroundTask(task.id, 2000, 'person');
  return { kind: 'info', text: `Stopped task ${task.id} (${taskLabel(task)}).` };
}

export const planCommand: SlashCommand = {
  name: 'plan',
  argumentHint: '[what to plan]',
  description: 'Switch to plan mode (read-only until a plan is approved)',
  source: 'builtin',
  run(args, s) {
    s.options.permission.mode = 'plan';
    const task = args.trim();
    return task
      ? { kind: 'prompt', text: task }
      : { kind: 'info', text: 'Plan mode: the model can read and plan, and asks before changing anything (shift+tab leaves it).' };
  },
};

export const renameCommand: SlashCommand = {
  name: 'rename',
  argumentHint: '<name>',
  description: 'Name this session (shown when resuming)',
  source: 'builtin',
  run(args, s) {
    const name = args.trim();
    if (!name) return { kind: 'info', text: 'Give a name: /rename <name>' };
    if (!s.rename) return { kind: 'info', tone: 'warning', text: 'This session is not being saved, so it cannot be named.' };
    s.rename(name);
    return { kind: 'info', text: `Session named "${name}"` };
  },
};

export const doctorCommand: SlashCommand = {
  name: 'doctor',
  description: 'Check the installation and this session’s setup',
  source: 'builtin',
  async run(_args, s) {
    const checks = await doctorChecks(s);
    return { kind: 'info', text: checks.map(([ok, text]) => `  ${ok ? '✓' : '✗'} ${text}`).join('\n') };
  },
};

async function doctorChecks(s: SessionControl): Promise<Array<[boolean, string]>> {
  const o = s.options;
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const out: Array<[boolean, string]> = [[major > 20 || (major === 20 && minor >= 19), `Node ${process.versions.node} (20.19 or newer needed)`]];
  const via = o.client?.describe?.();
  if (via) {
    out.push([true, `credentials from ${via.credentials}`]);
    out.push([true, `${via.provider} at ${via.endpoint}${via.region ? ` (${via.region})` : ''}, model ${o.model}`]);
  } else {
    const key = o.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY' : o.env.ANTHROPIC_AUTH_TOKEN ? 'ANTHROPIC_AUTH_TOKEN' : undefined;
    out.push([key !== undefined, key ? `credentials from ${key}` : 'no credentials: set ANTHROPIC_API_KEY']);
    out.push([true, `API ${o.env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com'}, model ${o.model}`]);
  }
  try {
    const { rgPath } = requireModule<typeof import('@vscode/ripgrep')>('@vscode/ripgrep');
    out.push([existsSync(rgPath), `ripgrep ${existsSync(rgPath) ? 'at' : 'missing from'} ${rgPath}`]);
  } catch {
    out.push([false, 'ripgrep (@vscode/ripgrep) is not installed: Glob and Grep cannot run']);
  }
  const sandbox = (o.settings.sandbox as { enabled?: boolean } | undefined)?.enabled === true;
  if (sandbox) {
    const bwrap = await bwrapAvailability();
    out.push([bwrap.ok, bwrap.ok ? 'bubblewrap works for the sandbox' : `sandbox enabled, but ${bwrap.reason}`]);
  }
  out.push([writable(o.wicketHome), `${o.wicketHome} ${writable(o.wicketHome) ? 'is writable' : 'is not writable: sessions are not saved'}`]);
  for (const w of s.loaded.warnings) out.push([false, `settings: ${w}`]);
  for (const m of s.mcpServers ?? []) if (m.status === 'failed') out.push([false, `MCP server ${m.name}: ${m.error ?? 'failed'}`]);
  return out;
}

function writable(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if (existsSync(d)) {
      try {
        accessSync(d, constants.W_OK);
        return true;
      } catch {
        return false;
      }
    }
    if (path.dirname(d) === d) return false;
  }
}

export { memoryCommand };

export const SESSION_INFO_COMMANDS = [
  contextCommand,
  exportCommand,
  memoryCommand,
  hooksCommand,
  agentsCommand,
  tasksCommand,
  planCommand,
  renameCommand,
  doctorCommand,
];
