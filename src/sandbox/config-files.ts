/**
 * Files outside the usual configuration names that wicket reads as configuration or runs, so the
 * sandbox keeps them read-only when they lie in a writable folder: the user's config folder
 * (`~/.claude` or CLAUDE_CONFIG_DIR, with the session transcripts a `-c` run loads), `~/.claude.json`,
 * wicket's own folder (`~/.wicket` or WICKET_HOME: checkpoints, older transcripts), the managed policy, every settings file a rule came
 * from, and the scripts that hooks, the status line, the credential helpers and stdio MCP servers
 * name on their command lines (`node scripts/check.js`, `"$CLAUDE_PROJECT_DIR"/hooks/lint.sh`).
 * Only the file a command names is covered, not what that file loads in turn.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PermissionRules } from '../base/permission-types.js';
import { DEFAULT_MANAGED_SETTINGS, globalConfigPath, managedDropInDir, userConfigDir } from '../settings/paths.js';
import type { MissingPath } from './deny-paths.js';

export interface ConfigFilesContext {
  projectRoot: string;
  homeDir: string;
  wicketHome: string;
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
  rules?: PermissionRules | undefined;
  /** Folders where `.mcp.json` files are read (the project and its parents). */
  mcpDirs: readonly string[];
}

/** Configuration files and folders, whether or not they exist. */
export function userConfigPaths(ctx: ConfigFilesContext): MissingPath[] {
  const configDir = ctx.env.CLAUDE_CONFIG_DIR || undefined;
  const managed = ctx.env.WICKET_MANAGED_SETTINGS || DEFAULT_MANAGED_SETTINGS;
  const ruleFiles = ctx.rules ? [...ctx.rules.allow, ...ctx.rules.ask, ...ctx.rules.deny].map((r) => r.sourcePath).filter((p): p is string => !!p) : [];
  return [
    { path: userConfigDir(ctx.homeDir, configDir), kind: 'dir' },
    { path: globalConfigPath(ctx.homeDir, configDir), kind: 'file' },
    { path: ctx.wicketHome, kind: 'dir' },
    { path: managed, kind: 'file' },
    { path: managedDropInDir(managed), kind: 'dir' },
    ...[...new Set(ruleFiles)].filter((f) => path.isAbsolute(f)).map((f) => ({ path: f, kind: 'file' as const })),
  ];
}

/** Existing files named on the command lines wicket runs by itself. */
export function commandFiles(ctx: ConfigFilesContext): string[] {
  const lines = [...settingsCommands(ctx.settings), ...mcpCommands(ctx.mcpDirs)];
  const out = new Set<string>();
  for (const line of lines)
    for (const word of words(line)) {
      const file = asFile(word, ctx);
      if (file) out.add(file);
    }
  return [...out];
}

function settingsCommands(settings: Record<string, unknown>): string[] {
  const out: string[] = [];
  const hooks = record(settings.hooks);
  for (const groups of Object.values(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      for (const h of Array.isArray(record(group).hooks) ? (record(group).hooks as unknown[]) : []) {
        const cmd = record(h).command;
        if (typeof cmd === 'string') out.push(cmd);
      }
    }
  }
  for (const key of ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'otelHeadersHelper']) {
    if (typeof settings[key] === 'string') out.push(settings[key] as string);
  }
  for (const key of ['statusLine', 'fileSuggestion']) {
    const cmd = record(settings[key]).command;
    if (typeof cmd === 'string') out.push(cmd);
  }
  return out;
}

function mcpCommands(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    const file = path.join(dir, '.mcp.json');
    if (!existsSync(file)) continue;
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    for (const server of Object.values(record(record(data).mcpServers))) {
      const s = record(server);
      if (typeof s.command === 'string') out.push([s.command, ...(Array.isArray(s.args) ? s.args.map(String) : [])].map((w) => JSON.stringify(w)).join(' '));
    }
  }
  return out;
}

/** Shell-like words: quotes removed and adjacent parts joined (`"$DIR"/x.sh` is one word); no expansion here. */
export function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== c; j++) {
        if (c === '"' && line[j] === '\\' && j + 1 < line.length) j++;
        cur += line[j];
      }
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/[\s;&|<>()]/.test(c)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out.filter(Boolean);
}

function asFile(word: string, ctx: ConfigFilesContext): string | undefined {
  const w = word
    .replace(/\$\{?CLAUDE_PROJECT_DIR\}?/g, ctx.projectRoot)
    .replace(/^~(?=\/)/, ctx.homeDir)
    .replace(/^--?[\w-]+=/, '');
  if (!w.includes('/') && !/\.(sh|bash|zsh|js|mjs|cjs|ts|py|rb|pl)$/.test(w)) return undefined;
  if (w.includes('$') || w.includes('*')) return undefined;
  const abs = path.resolve(ctx.projectRoot, w);
  try {
    return statSync(abs).isFile() ? abs : undefined;
  } catch {
    return undefined;
  }
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
