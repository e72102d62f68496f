/**
 * A small filesystem for permission tests: a project with secrets, symbolic links in and out of it,
 * a separate home and an "outside" folder, plus settings files written per case and loaded through
 * the real loader. Fake tools stand in where a real one does not exist yet (Bash, WebFetch, MCP…).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { decidePermission } from '../../../src/permissions/decide.js';
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import type { PermissionDecision } from '../../../src/base/permission-types.js';
import { loadSettings, type LoadedSettings } from '../../../src/settings/load.js';
import { editTool } from '../../../src/tools/edit/index.js';
import { exitPlanModeTool } from '../../../src/tools/exit-plan-mode/index.js';
import { globTool } from '../../../src/tools/glob/index.js';
import { grepTool } from '../../../src/tools/grep/index.js';
import { notebookEditTool } from '../../../src/tools/notebook-edit/index.js';
import { readTool } from '../../../src/tools/read/index.js';
import { ReadState } from '../../../src/base/read-state.js';
import type { ParsedRule } from '../../../src/base/rule-parse.js';
import type { PermissionContext, RuleList, Tool } from '../../../src/base/tool.js';
import { writeTool } from '../../../src/tools/write/index.js';

export interface World {
  root: string;
  project: string;
  home: string;
  outside: string;
  managed: string;
  cleanup(): void;
}

const FILES = [
  'project/.env',
  'project/.env.local',
  'project/sub/.env',
  'project/src/a.ts',
  'project/src/deep/b.ts',
  'project/lib/src/c.ts',
  'project/secrets/key.pem',
  'project/secretsX/file.txt',
  'project/config/secret.json',
  'project/package.json',
  'project/.git/config',
  'project/.git/hooks/pre-commit',
  'project/.claude/worktrees/w/file.ts',
  'project/notebooks/n.ipynb',
  'project/README.md',
  'outside/secret.txt',
  'outside/.env',
  'outside/src/x.ts',
  'home/.ssh/id_rsa',
  'home/.bashrc',
  'home/notes.txt',
  'home/.claude/config/secret.json',
];

export function makeWorld(): World {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-perm-')));
  for (const f of FILES) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), f.endsWith('.ipynb') ? '{"cells":[],"metadata":{},"nbformat":4,"nbformat_minor":5}' : `content of ${f}\n`);
  }
  const project = path.join(root, 'project');
  symlinkSync('.env', path.join(project, 'innocent.txt'));
  symlinkSync('../outside/secret.txt', path.join(project, 'outlink'));
  symlinkSync('../outside', path.join(project, 'outdir'));
  symlinkSync('.git/hooks', path.join(project, 'hooklink'));
  symlinkSync('../../outside', path.join(project, 'src/link'));
  mkdirSync(path.join(root, 'managed'));
  return {
    root,
    project,
    home: path.join(root, 'home'),
    outside: path.join(root, 'outside'),
    managed: path.join(root, 'managed/managed-settings.json'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** `{P}`, `{H}`, `{O}` in strings → the project, home and outside folders. */
export function expand(w: World, value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('{P}', w.project).replaceAll('{H}', w.home).replaceAll('{O}', w.outside);
  if (Array.isArray(value)) return value.map((v) => expand(w, v));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(w, v)]));
  return value;
}

export interface SettingsSpec {
  user?: object;
  project?: object;
  local?: object;
  /** Passed as `--settings` JSON text. */
  cli?: object;
  managed?: object;
  flagsAllow?: string[];
  flagsDeny?: string[];
}

/** Writes (or removes) every settings file, then loads them with the real loader. */
export function loadWorldSettings(w: World, spec: SettingsSpec): LoadedSettings {
  const files: Array<[string, object | undefined]> = [
    [path.join(w.home, '.claude/settings.json'), spec.user],
    [path.join(w.project, '.claude/settings.json'), spec.project],
    [path.join(w.project, '.claude/settings.local.json'), spec.local],
    [w.managed, spec.managed],
  ];
  for (const [file, data] of files) {
    rmSync(file, { force: true });
    if (data) writeFileSync(file, JSON.stringify(expand(w, data), null, 2));
  }
  return loadSettings({
    cwd: w.project,
    home: w.home,
    managedPath: w.managed,
    trusted: () => true,
    ...(spec.cli ? { cliSettings: JSON.stringify(expand(w, spec.cli)) } : {}),
    ...(spec.flagsAllow ? { cliAllowed: spec.flagsAllow } : {}),
    ...(spec.flagsDeny ? { cliDisallowed: spec.flagsDeny } : {}),
  });
}

export function permissionContext(w: World, mode: PermissionMode, cwd = w.project, additionalDirs: string[] = []): PermissionContext {
  return {
    cwd,
    projectRoot: w.project,
    additionalDirs,
    homeDir: w.home,
    wicketHome: path.join(w.home, '.wicket'),
    sessionId: 'perm-test',
    permissionMode: mode,
    readState: new ReadState(),
    env: {},
    settings: {},
  };
}

/** A Bash stand-in: subcommands split on && || ; |, rules matched as exact, `prefix:*`, `prefix *` or `prefix*`. */
function bashRuleMatches(spec: string, sub: string): boolean {
  const prefix = /(:\*| \*)$/.exec(spec);
  if (prefix) {
    const p = spec.slice(0, -2);
    return sub === p || sub.startsWith(`${p} `);
  }
  if (spec.endsWith('*')) return sub.startsWith(spec.slice(0, -1));
  return sub === spec;
}

function subcommands(command: string): string[] {
  return command
    .split(/&&|\|\||;|\|/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function fakeTool(name: string, overrides: Partial<Tool> = {}): Tool {
  return {
    name,
    description: () => name,
    inputSchema: z.any(),
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    checkPermissions: async () => ({ behavior: 'ask', reason: `${name} needs approval`, suggestions: [name] }),
    // eslint-disable-next-line require-yield
    async *call() {
      return undefined;
    },
    toModelResult: () => ({ content: '' }),
    summary: () => name,
    ...overrides,
  };
}

export const fakeBash = fakeTool('Bash', {
  isReadOnly: (i: { command: string }) => subcommands(i.command).every((s) => /^(ls|cat|pwd|echo|git status)\b/.test(s)),
  matchRules(input: { command: string }, rules: ParsedRule[], list: RuleList) {
    const subs = subcommands(input.command);
    for (const rule of rules) {
      const hits = subs.map((s) => bashRuleMatches(rule.specifier!, s));
      if (list === 'allow' ? hits.every(Boolean) : hits.some(Boolean)) return rule;
    }
    return undefined;
  },
  async checkPermissions(input: { command: string }) {
    if (subcommands(input.command).every((s) => /^(ls|cat|pwd|echo|git status)\b/.test(s))) return { behavior: 'allow', reason: 'read-only command' };
    return { behavior: 'ask', reason: `run ${input.command}`, suggestions: [`Bash(${input.command})`] };
  },
});

export const fakeWebFetch = fakeTool('WebFetch', {
  isReadOnly: () => true,
  matchRules(input: { url: string }, rules: ParsedRule[]) {
    const host = new URL(input.url).hostname.toLowerCase();
    return rules.find((r) => {
      const d = r.specifier!.replace(/^domain:/, '').toLowerCase();
      return d.startsWith('*.') ? host.endsWith(d.slice(1)) : host === d;
    });
  },
});

export const TOOLS: Record<string, Tool> = {
  Read: readTool,
  Edit: editTool,
  Write: writeTool,
  Grep: grepTool,
  Glob: globTool,
  NotebookEdit: notebookEditTool,
  ExitPlanMode: exitPlanModeTool,
  Bash: fakeBash,
  WebFetch: fakeWebFetch,
  WebSearch: fakeTool('WebSearch', { isReadOnly: () => true }),
  Agent: fakeTool('Agent', { aliases: ['Task'], isReadOnly: () => true, checkPermissions: async () => ({ behavior: 'allow' }) }),
  TodoWrite: fakeTool('TodoWrite', { checkPermissions: async () => ({ behavior: 'allow' }) }),
  mcp__github__get_issue: fakeTool('mcp__github__get_issue'),
  mcp__github__create_issue: fakeTool('mcp__github__create_issue'),
  mcp__slack__post: fakeTool('mcp__slack__post'),
};

export async function decide(
  w: World,
  loaded: LoadedSettings,
  toolName: string,
  input: unknown,
  mode: PermissionMode,
  opts: { cwd?: string; additionalDirs?: string[] } = {},
): Promise<PermissionDecision> {
  const tool = TOOLS[toolName];
  if (!tool) throw new Error(`no test tool ${toolName}`);
  const ctx = permissionContext(w, mode, opts.cwd ? (expand(w, opts.cwd) as string) : w.project, expand(w, opts.additionalDirs ?? []) as string[]);
  return decidePermission({ tool, input: expand(w, input), ctx, rules: loaded.rules, mode });
}
