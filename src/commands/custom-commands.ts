/**
 * Custom commands, as Claude Code reads them: `.claude/commands/**\/*.md` (project) and
 * `<config dir>/commands/**\/*.md` (user; CLAUDE_CONFIG_DIR or ~/.claude). A file in a subfolder is
 * `/folder:name`. Frontmatter `description` and `argument-hint` are shown in /help. In the body,
 * `$ARGUMENTS` is everything after the name, `$ARGUMENTS[N]` the Nth word (from 0), `$1`…`$9` the
 * Nth word (from 1); without any of them the arguments are appended as `ARGUMENTS: …`.
 * `${CLAUDE_PROJECT_DIR}` and `${CLAUDE_SESSION_ID}` are filled in too. Plugins add theirs as
 * `/plugin:name` (plugins/commands.ts), with `${CLAUDE_PLUGIN_ROOT}` filled in. Inline shell (`!`cmd``)
 * runs as a Bash call through the tool gates, allowed by the file's `allowed-tools` (inline-shell.ts).
 * The interactive app and print mode (`wicket -p "/name args"`) both expand them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseFrontmatter } from '../settings/frontmatter.js';
import { parseRule, splitRuleList } from '../base/rule-parse.js';
import type { PermissionRules } from '../base/permission-types.js';
import { expandInlineShell, hasInlineShell, type InlineExpansion, type InlineRun } from './inline-shell.js';
import { inSafeMode } from '../settings/safe-mode.js';
import { loadSkills } from './skills.js';
import type { CustomCommand } from './types.js';

/** Runs one inline shell command through the gates, with these extra allow rules. */
export type RunInlineBash = (command: string, allowedTools: readonly string[]) => Promise<InlineRun>;

export interface ExpandContext {
  projectDir: string;
  sessionId: string;
}

/** The plugins' commands (plugins/commands.ts); plugins/active.ts sets them when a session's plugins load. */
let pluginCommands: () => CustomCommand[] = () => [];

export function setPluginCommands(commands: () => CustomCommand[]): void {
  pluginCommands = commands;
}

export function loadCustomCommands(projectRoot: string, configDir: string): CustomCommand[] {
  if (inSafeMode()) return [];
  const project = scanCommandDir(path.join(projectRoot, '.claude', 'commands'), 'project');
  const user = scanCommandDir(path.join(configDir, 'commands'), 'user');
  const names = new Set(project.map((c) => c.name));
  const commands = [...project, ...user.filter((c) => !names.has(c.name)), ...pluginCommands()];
  // A skill beats a command of the same name.
  const skills = loadSkills(projectRoot, configDir).filter((s) => s.userInvocable !== false);
  const skillNames = new Set(skills.map((s) => s.name));
  return [...commands.filter((c) => !skillNames.has(c.name)), ...skills];
}

/** The commands in a folder (and its subfolders, as `folder:name`). */
export function scanCommandDir(root: string, source: CustomCommand['source'], prefix = '', depth = 0): CustomCommand[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(path.join(root, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: CustomCommand[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory() && depth < 3) out.push(...scanCommandDir(root, source, rel, depth + 1));
    else if (e.isFile() && e.name.endsWith('.md')) {
      const cmd = commandFromFile(path.join(root, rel), rel.slice(0, -3).split('/').join(':'), source);
      if (cmd) out.push(cmd);
    }
  }
  return out;
}

export function commandFromFile(file: string, name: string, source: CustomCommand['source']): CustomCommand | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { meta, body } = parseFrontmatter(text);
  const firstLine = body.trim().split('\n')[0] ?? '';
  return {
    name,
    description: meta.description ?? (firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine),
    ...(meta['argument-hint'] ? { argumentHint: meta['argument-hint'] } : {}),
    source,
    allowedTools: splitRuleList([meta['allowed-tools'] ?? '']),
    body,
  };
}

/** The prompt a command sends: its body with the arguments and session facts filled in. */
export function expandCustomCommand(cmd: CustomCommand, args: string, ctx: ExpandContext): string {
  const body = cmd.body
    .replace(/\$\{CLAUDE_PROJECT_DIR\}/g, ctx.projectDir)
    .replace(/\$\{CLAUDE_SESSION_ID\}/g, ctx.sessionId)
    .replace(/\$\{CLAUDE_SKILL_DIR\}/g, cmd.skillDir ?? '${CLAUDE_SKILL_DIR}')
    .replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, () => cmd.pluginRoot ?? '${CLAUDE_PLUGIN_ROOT}');
  return expandArguments(body, args);
}

/** A command's prompt, the rules its `allowed-tools` grants for the turn it starts, and hook context that goes with it. */
export type RenderedCommand = { ok: true; text: string; allowedTools: readonly string[]; context?: string } | { ok: false; message: string };

/** Asked before a command expands (UserPromptExpansion hooks): `ok: false` stops it with a message. */
export type ExpansionCheck = (cmd: CustomCommand, args: string) => Promise<{ ok: true; context?: string } | { ok: false; message: string }>;

/** The command's prompt with its inline shell run (`run`); a refused command stops it. */
export async function renderCustomCommand(cmd: CustomCommand, args: string, ctx: ExpandContext, run: RunInlineBash): Promise<RenderedCommand> {
  const text = expandCustomCommand(cmd, args, ctx);
  const r: InlineExpansion = hasInlineShell(text) ? await expandInlineShell(text, (command) => run(command, cmd.allowedTools)) : { ok: true, text };
  return r.ok ? { ...r, allowedTools: cmd.allowedTools } : r;
}

/**
 * Adds a command's `allowed-tools` to the session's allow rules, for the turn the command starts;
 * the returned function takes them out again. Deny and ask rules still come first, and a rule the
 * person adds during the turn ("don't ask again") stays.
 */
export function grantAllowedTools(rules: PermissionRules, allowedTools: readonly string[]): () => void {
  const granted = allowedTools.map((r) => parseRule(r, 'session'));
  rules.allow.unshift(...granted);
  return () => {
    for (const r of granted) {
      const at = rules.allow.indexOf(r);
      if (at >= 0) rules.allow.splice(at, 1);
    }
  };
}

/** `/name args` → its parts; undefined for anything else. */
export function parseSlash(text: string): { name: string; args: string } | undefined {
  const m = /^\/([^\s/][^\s]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: m[2] ?? '' } : undefined;
}

/**
 * Print mode: a prompt that names a custom command (`/review src/a.ts`) becomes that command's
 * prompt, as in Claude Code; any other text, `/unknown` included, goes to the model unchanged.
 */
export async function expandSlashPrompt(
  text: string,
  roots: { projectRoot: string; configDir: string },
  ctx: ExpandContext,
  run: RunInlineBash,
  check?: ExpansionCheck,
): Promise<RenderedCommand> {
  const parsed = parseSlash(text);
  if (!parsed) return { ok: true, text, allowedTools: [] };
  const cmd = loadCustomCommands(roots.projectRoot, roots.configDir).find((c) => c.name === parsed.name);
  if (!cmd) return { ok: true, text, allowedTools: [] };
  const checked = check ? await check(cmd, parsed.args) : { ok: true as const };
  if (!checked.ok) return checked;
  const rendered = await renderCustomCommand(cmd, parsed.args, ctx, run);
  return rendered.ok && checked.context ? { ...rendered, context: checked.context } : rendered;
}

/** Splits arguments like a shell would for plain words and quotes. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return out;
}

export function expandArguments(body: string, args: string): string {
  const words = splitArgs(args);
  let used = false;
  let out = body.replace(/\$ARGUMENTS\[(\d+)\]/g, (_, n: string) => {
    used = true;
    return words[Number(n)] ?? '';
  });
  out = out.replace(/\$ARGUMENTS\b/g, () => {
    used = true;
    return args.trim();
  });
  out = out.replace(/\$([1-9])(?!\d)/g, (_, n: string) => {
    used = true;
    return words[Number(n) - 1] ?? '';
  });
  if (!used && args.trim()) out = `${out.replace(/\s+$/, '')}\n\nARGUMENTS: ${args.trim()}`;
  return out.trim();
}
