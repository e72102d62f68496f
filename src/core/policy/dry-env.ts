/**
 * The gates a session in a folder would have now, set up to judge calls without running them: the
 * settings (or a candidate file in place of the project's shared one), the built-in tools, the
 * permission mode and rules, and, when asked, the PreToolUse hooks of the settings. Nothing here
 * talks to a model or runs a tool.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ReadState } from '../../base/read-state.js';
import type { PermissionMode } from '../../base/permission-modes.js';
import type { PermissionRules } from '../../base/permission-types.js';
import type { Tool, ToolContext } from '../../base/tool.js';
import { createHooks } from '../../hooks/create.js';
import { noHooks, type Hooks } from '../../hooks/types.js';
import { readDenyPatterns } from '../../permissions/search-deny.js';
import { loadSettings, type LoadedSettings } from '../../settings/load.js';
import { wicketHomeDir } from '../../settings/paths.js';
import { BUILTIN_TOOLS } from '../../tools/registry.js';
import { mcpStandIns } from './stand-in.js';

export interface DryEnvOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  home?: string;
  /** A settings file judged in place of the project's `.claude/settings.json`. */
  candidate?: string;
  /** Run the settings' PreToolUse hooks (they are real processes: they run). */
  hooks?: boolean;
  /** Extra tools (a connected MCP server's), after the built-ins. */
  tools?: readonly Tool[];
  /** MCP tool names recorded calls use: each one no server offers here gets a stand-in (stand-in.ts). */
  mcpNames?: Iterable<string>;
}

/** What the dry gates need: the same pieces a session hands its gate runner. */
export interface DryEnv {
  cwd: string;
  loaded: LoadedSettings;
  tools: readonly Tool[];
  mode: PermissionMode;
  rules: PermissionRules;
  hooks: Hooks;
  base: Omit<ToolContext, 'cwd' | 'readState' | 'signal' | 'toolUseId' | 'permissionMode'>;
  /** What loading the settings found wrong (a file that cannot be read: the judge refuses to say). */
  errors: string[];
}

const DRY_SESSION = 'dry-run';

export function dryEnv(opts: DryEnvOptions): DryEnv {
  const cwd = realpathSync(opts.cwd);
  const home = opts.home ?? opts.env.HOME ?? homedir();
  const configDir = opts.env.CLAUDE_CONFIG_DIR || undefined;
  const loaded = loadSettings({
    cwd,
    home,
    configDir,
    managedPath: opts.env.WICKET_MANAGED_SETTINGS || undefined,
    ...(opts.candidate ? { projectSettingsFile: path.resolve(cwd, opts.candidate) } : {}),
  });
  const settings = { ...loaded.merged, __readDenyGlobs: readDenyPatterns(loaded.rules.deny, { projectRoot: cwd, homeDir: home }) };
  const known = [...BUILTIN_TOOLS, ...(opts.tools ?? [])];
  const tools = [...known, ...mcpStandIns(opts.mcpNames ?? [], known)];
  const mode: PermissionMode = loaded.defaultMode ?? 'default';
  const env = { ...opts.env, ...loaded.env };
  const hooks = opts.hooks
    ? createHooks(loaded, {
        sessionId: DRY_SESSION,
        cwd,
        projectRoot: cwd,
        transcriptPath: '',
        getPermissionMode: () => mode,
        env,
        tools,
      })
    : noHooks;
  return {
    cwd,
    loaded,
    tools,
    mode,
    rules: loaded.rules,
    hooks: { ...noHooks, preToolUse: hooks.preToolUse },
    base: {
      projectRoot: cwd,
      additionalDirs: loaded.additionalDirectories,
      homeDir: home,
      wicketHome: wicketHomeDir(home, opts.env),
      sessionId: DRY_SESSION,
      env,
      settings,
      seenUrls: new Set<string>(),
    },
    errors: loaded.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`),
  };
}

/** A fresh read state per judged call: what one call read never changes how the next is judged. */
export function dryState(env: DryEnv): { cwd: string; readState: ReadState } {
  return { cwd: env.cwd, readState: new ReadState() };
}
