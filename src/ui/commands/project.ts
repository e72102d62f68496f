/** /init (write a CLAUDE.md for the project) and /add-dir (let the tools reach another folder). */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInWorkspace } from '../../base/paths.js';
import type { SlashCommand } from './types.js';

const INIT_PROMPT = `Look through this codebase and write a CLAUDE.md file at its root, for future sessions of a coding agent working here. If a CLAUDE.md already exists, improve it instead of starting over.

Put in it what is not obvious from a glance at the files, and keep it short:
1. The commands to build, lint and test, including how to run a single test.
2. The architecture in broad strokes: the parts, how they fit, and where to find things — what takes reading several files to understand.
3. Conventions the code follows (style, naming, error handling) that a newcomer might break.

Use what the repository says about itself (README, contributing notes, .cursor/rules, .github/copilot-instructions.md and the like) where it helps. Do not list every file, do not invent sections or advice the code does not support, and do not repeat generic good practice.`;

export const initCommand: SlashCommand = {
  name: 'init',
  description: 'Write (or improve) a CLAUDE.md describing this project',
  source: 'builtin',
  expands: true,
  run: () => ({ kind: 'prompt', text: INIT_PROMPT }),
};

export const addDirCommand: SlashCommand = {
  name: 'add-dir',
  argumentHint: '<path>',
  description: 'Let the tools work in another folder too, for this session',
  source: 'builtin',
  run(args, s) {
    const wanted = args.trim();
    if (!wanted)
      return {
        kind: 'info',
        text: `Folders the tools may use besides the project: ${s.options.additionalDirs.join(', ') || '(none)'}\nAdd one with /add-dir <path>.`,
      };
    const abs = path.resolve(s.options.state.cwd, wanted.replace(/^~(?=$|\/)/, s.options.homeDir));
    let dir: string;
    try {
      if (!statSync(abs).isDirectory()) return { kind: 'info', tone: 'error', text: `${abs} is not a folder.` };
      dir = realpathSync(abs);
    } catch {
      return { kind: 'info', tone: 'error', text: `${abs} does not exist.` };
    }
    if (isInWorkspace(dir, s.options)) return { kind: 'info', text: `${dir} is already open to the tools.` };
    s.options.additionalDirs.push(dir);
    // DirectoryAdded hooks run in the background; their output goes to the debug log.
    void s.options.hooks.directoryAdded?.({ directory: dir, source: 'slash_command' }).then(
      (failed) => failed && s.note?.(`${failed} DirectoryAdded hook${failed === 1 ? '' : 's'} failed (the debug log has the output).`, 'warning'),
      () => undefined,
    );
    return {
      kind: 'info',
      text: `${dir} is open to the tools for this session (the same rules apply there). To keep it, add it to permissions.additionalDirectories in .claude/settings.local.json.`,
    };
  },
};
