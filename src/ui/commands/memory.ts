/**
 * /memory: the instruction files this session loaded (why each, its size in tokens), the rules that
 * wait for a matching file and the files left out; `/memory <number>` opens a loaded file in the
 * editor, `/memory project|local|user|auto` the project's CLAUDE.md, CLAUDE.local.md, the user's
 * CLAUDE.md or the auto memory index (made when saved). The next request carries the change.
 */
import path from 'node:path';
import { memoryTargets } from '../../session/memory/quick-add.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

export const memoryCommand: SlashCommand = {
  name: 'memory',
  argumentHint: '[number | project | local | user | auto]',
  description: 'The instruction files (CLAUDE.md…) this session loaded; /memory <n> opens one in your editor',
  source: 'builtin',
  run(args, s) {
    const session = s.options.instructions?.session;
    if (!session) return { kind: 'info', text: 'Instruction files are off in this session (--bare or safe mode).' };
    const targets = memoryTargets({
      cwd: s.cwd,
      configDir: s.configDir,
      ...(session.options.autoMemoryDir ? { memoryDir: session.options.autoMemoryDir } : {}),
    });
    const arg = args.trim();
    if (!arg) {
      const choices = targets.map((t) => `  /memory ${t.name.padEnd(8)} ${t.file} (${t.label.toLowerCase()}: ${t.note})`);
      return { kind: 'info', text: [...session.report(), 'Open one in your editor: /memory <number>, or', ...choices].join('\n') };
    }
    return editResult(arg, session.files(), targets, s);
  },
};

function editResult(arg: string, files: ReadonlyArray<{ path: string }>, targets: ReturnType<typeof memoryTargets>, s: SessionControl): CommandResult {
  const byNumber = /^\d+$/.test(arg) ? files[Number(arg) - 1] : undefined;
  const byName = targets.find((t) => t.name === arg.toLowerCase());
  const file = byNumber?.path ?? byName?.file ?? (arg.includes('/') || arg.endsWith('.md') ? path.resolve(s.cwd, arg) : undefined);
  if (!file || file.startsWith('<')) return { kind: 'info', tone: 'warning', text: `/memory ${arg}: no such instruction file. /memory lists them.` };
  return { kind: 'edit', file };
}
