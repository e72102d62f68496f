/**
 * The session's instruction files (session/memory/) from its options and settings: where the
 * managed folder is, which setting sources count, `claudeMdExcludes`, Read deny rules, whether
 * imports from outside the project were approved, and auto memory (its folder is made, and Read,
 * Write and Edit are allowed there without asking). None with --bare or in safe mode; with
 * CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 no file is given (as in Claude Code), auto memory's folder stays.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ParsedRule } from '../../base/rule-parse.js';
import { deniedPathRule } from '../../permissions/path-rules.js';
import { agentsModeOf } from '../../session/memory/agents-md.js';
import { autoMemoryDir, autoMemoryEnabled, mainRepositoryRoot } from '../../session/memory/auto-memory.js';
import { SessionInstructions } from '../../session/memory/session-instructions.js';
import { externalImportsAnswer } from '../../settings/external-imports.js';
import type { LoadedSettings } from '../../settings/load.js';
import { DEFAULT_MANAGED_SETTINGS, wicketHomeDir } from '../../settings/paths.js';
import { memoryRules } from '../../tools/agent/memory.js';
import type { CliOptions } from './options.js';

export interface InstructionsSetup {
  instructions?: SessionInstructions;
  /** The auto memory folder, when auto memory is on. */
  memoryDir?: string;
  /** The allow rules that open it to the file tools. */
  rules: ParsedRule[];
}

export interface InstructionsWhere {
  cwd: string;
  home: string;
  configDir: string;
  env: Record<string, string | undefined>;
  loaded: LoadedSettings;
  additionalDirs: readonly string[];
  /** The folder name of a project path under `<config dir>/projects/`. */
  slug: (projectPath: string) => string;
  /** Make the auto memory folder (default); `wicket config` only looks. */
  makeFolder?: boolean;
}

export function setupInstructions(opts: Pick<CliOptions, 'bare' | 'safeMode' | 'settingSources'>, w: InstructionsWhere): InstructionsSetup {
  if (opts.bare || opts.safeMode) return { rules: [] };
  const { cwd, home, configDir, env, loaded } = w;
  const memoryOn = autoMemoryEnabled(env, loaded.merged);
  const memoryDir = memoryOn ? autoMemoryDir({ cwd, home, configDir, slug: w.slug, ...dirSetting(loaded) }) : undefined;
  if (memoryOn && !memoryDir) loaded.warnings.push(`autoMemoryDirectory "${loaded.autoMemoryDirectory}" is not an absolute folder; auto memory is off`);
  if (memoryDir && w.makeFolder !== false) makeFolder(memoryDir, loaded.warnings);
  const rules = memoryDir ? memoryRules(memoryDir) : [];
  if (truthy(env.CLAUDE_CODE_DISABLE_CLAUDE_MDS)) return { ...(memoryDir ? { memoryDir } : {}), rules };
  const wanted = (s: string) => !opts.settingSources || opts.settingSources.includes(s);
  const ctx = { cwd, projectRoot: cwd, homeDir: home };
  const instructions = new SessionInstructions({
    cwd,
    home,
    configDir,
    managedDir: path.dirname(env.WICKET_MANAGED_SETTINGS || DEFAULT_MANAGED_SETTINGS),
    ...(loaded.managedClaudeMd ? { managedClaudeMd: loaded.managedClaudeMd } : {}),
    excludes: loaded.merged.claudeMdExcludes,
    deniedBy: (file) => {
      try {
        return deniedPathRule(file, 'read', loaded.rules, ctx as Parameters<typeof deniedPathRule>[3])?.raw;
      } catch {
        return 'a Read deny rule that could not be checked';
      }
    },
    ...externalAnswer(cwd, home, env),
    sources: { user: wanted('user'), project: wanted('project'), local: wanted('local') },
    ...(truthy(env.CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD) ? { additionalDirs: w.additionalDirs } : {}),
    ...(memoryDir ? { autoMemoryDir: memoryDir } : {}),
    agentsMode: agentsModeOf({ pluginConfigs: { 'agents-md@builtin': loaded.agentsMdConfig } }),
    lexCacheDir: path.join(wicketHomeDir(home, env), 'cache', 'instructions'),
  });
  for (const s of instructions.skipped())
    if (s.reason.startsWith('not found') && s.parent)
      loaded.warnings.push(`${s.parent} imports ${s.path}, which does not exist${s.reason.slice('not found'.length)}`);
  return { instructions, ...(memoryDir ? { memoryDir } : {}), rules };
}

function dirSetting(loaded: LoadedSettings): { directory?: string } {
  return loaded.autoMemoryDirectory ? { directory: loaded.autoMemoryDirectory } : {};
}

function makeFolder(dir: string, warnings: string[]): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    warnings.push(`the auto memory folder ${dir} could not be made: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Claude Code's per-project answer in `~/.claude.json` (the folder's entry, its repository's or its main checkout's). */
function externalAnswer(cwd: string, home: string, env: Record<string, string | undefined>): { externalApproved: boolean; externalDeclined?: boolean } {
  const root = mainRepositoryRoot(cwd);
  const answer = externalImportsAnswer({ cwd, home, ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}) }, root ? [root] : []);
  return answer.approved ? { externalApproved: true } : answer.asked ? { externalApproved: false, externalDeclined: true } : { externalApproved: false };
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}
