/**
 * Command-line flags, spelled as Claude Code spells them so scripts written for it work here.
 * commander handles the syntax; `normalizeOptions` turns it into one typed value.
 */
import { Command, Option } from 'commander';
import { parsePermissionMode, type PermissionMode } from '../base/permission-modes.js';
import type { CliOptions } from '../core/setup/options.js';
import { splitRuleList } from '../base/rule-parse.js';
import { EFFORT_LEVELS, parseEffort } from '../base/models.js';

export class UsageError extends Error {}

/** Claude Code's flags that wicket does not have: named as such when given, rather than as unknown. */
const CLAUDE_CODE_ONLY_FLAGS = new Set([
  '--autocompact',
  '--ax-screen-reader',
  '--background',
  '--bg',
  '--brief',
  '--chrome',
  '--cloud',
  '--desktop',
  '--environment',
  '--exclude-dynamic-system-prompt-sections',
  '--file',
  '--forward-subagent-text',
  '--from-pr',
  '--ide',
  '--no-chrome',
  '--plugin-url',
  '--prompt-suggestions',
  '--remote-control',
  '--remote-control-session-name-prefix',
  '--restricted',
  '--system-prompt-snapshot',
  '--teleport',
  '--tmux',
]);

/** The words for commander's "unknown option '--x'": a Claude Code flag wicket lacks says so. */
export function unknownOptionText(message: string): string {
  const flag = /unknown option '([^']+)'/.exec(message)?.[1]?.split('=')[0];
  return flag && CLAUDE_CODE_ONLY_FLAGS.has(flag) ? `${flag} is not supported: it is a Claude Code flag wicket does not have` : message;
}

/** `--setting-sources user,project,local` (any of them; an empty value loads none of the three). */
function settingSources(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = String(raw)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((s) => s !== 'user' && s !== 'project' && s !== 'local');
  if (bad.length) throw new UsageError(`--setting-sources takes user, project and local (comma separated); got ${bad.join(', ')}`);
  return list;
}

/** --managed-settings: JSON text, or a file holding it. */
function settingsArg(value: string, readFile: (f: string) => string): string {
  return value.trim().startsWith('{') ? value : readFile(value);
}

/** Splits "A,B C" and repeated flags into rules, keeping parentheses together: "Bash(git log *)". */
export const splitToolList = (values: string[] | undefined): string[] => splitRuleList(values ?? []);

/** Printed after the flags: the subcommands (commander ends it with a newline). */
export const HELP_AFTER = `
Commands:
  wicket config                                     the settings that loaded, and every rule with its origin
  wicket trust [folder]                             trust a folder without the dialog (for CI): its allow rules apply
  wicket mcp list|get|add|add-json|remove           configure and check MCP servers (wicket mcp --help)
  wicket mcp login|logout <name>                    sign in to a remote MCP server (OAuth), or clear it
  wicket plugin list [--plugin-dir <folder>]        the plugins a session here loads, and those that would not
  wicket plugin install|uninstall|enable|disable <name@marketplace> [-s user|project|local]
  wicket plugin marketplace add <folder>|list|remove <name>
  wicket rules explain|test|suggest                 test the permission policy like code (wicket rules --help)
  wicket tools check [--tool NAME…] [--json]        every tool refuses nonsense, stops at a deny rule, runs safely beside another`;

export function buildProgram(version: string): Command {
  const p = new Command('wicket')
    .description('A terminal coding agent: the model works on your project only through tools that pass fixed, visible gates.')
    .version(`${version} (wicket)`, '-v, --version')
    .argument('[prompt]', 'prompt to send')
    .option('-p, --print', 'print the response and exit (for scripts and CI)')
    .addOption(new Option('--output-format <format>', 'print-mode output').choices(['text', 'json', 'stream-json']).default('text'))
    .addOption(new Option('--input-format <format>', 'print-mode input').choices(['text', 'stream-json']).default('text'))
    .option('--include-partial-messages', 'stream-json: include raw streaming events')
    .option('--include-hook-events', 'stream-json: report each hook starting and finishing')
    .option('--verbose', 'json output: every message, as one array; the app: every tool call in full (over settings verbose)')
    .option('--include-gate-traces', 'stream-json: a gate_trace line before each tool result (also settings includeGateTraces)')
    .option('--max-turns <n>', 'stop after this many tool-use round trips')
    .option('--max-budget-usd <usd>', 'stop when the estimated cost exceeds this')
    .option('--model <model>', 'model id or alias (sonnet, opus, haiku)')
    .option('--fallback-model <models>', 'the model(s) to switch to when the model stays overloaded (comma separated)')
    .option('--max-thinking-tokens <n>', 'extended thinking with this budget of tokens (0: off)')
    .addOption(new Option('--thinking <mode>', 'extended thinking: adaptive, enabled or disabled').choices(['adaptive', 'enabled', 'disabled']))
    .option('--betas <betas...>', 'API beta headers (comma separated; API-key sessions)')
    .option('--await-initialize', 'stream-json: wait for the initialize request before starting (the Agent SDK sends it)')
    .option('--effort <level>', 'how much effort the model puts in: low, medium, high, xhigh, max (or auto)')
    .option('--allowedTools, --allowed-tools <rules...>', 'allow rules, e.g. "Bash(git log *)" Read')
    .option('--disallowedTools, --disallowed-tools <rules...>', 'deny rules; a bare tool name removes the tool')
    .option('--tools <tools...>', 'restrict the built-in tool set ("" for none, "default" for all)')
    .option('--permission-mode <mode>', 'default | acceptEdits | plan | bypassPermissions | dontAsk')
    .option('--dangerously-skip-permissions', 'bypassPermissions mode (deny and ask rules still apply)')
    .option('--allow-dangerously-skip-permissions', 'let the mode cycle reach bypassPermissions')
    .option('--system-prompt <text>', 'replace the system prompt')
    .option('--system-prompt-file <file>', 'replace the system prompt with a file')
    .option('--append-system-prompt <text>', 'append to the system prompt')
    .option('--append-system-prompt-file <file>', 'append a file to the system prompt')
    .option('--add-dir <dirs...>', 'more directories the tools may use')
    .option('--settings <file-or-json>', 'extra settings (a file path or JSON text)')
    .option('--setting-sources <sources>', 'which settings to load: user,project,local')
    .option('-c, --continue', 'continue the most recent session in this directory')
    .option('-r, --resume [sessionId]', 'resume a session')
    .option('--session-id <uuid>', 'use this session id')
    .option('--fork-session', 'with --continue or --resume: go on under a new session id')
    .option('--resume-session-at <uuid>', 'stream-json with --resume: the conversation goes on from the message with this uuid')
    .option('--managed-settings <json>', 'stream-json: policy settings from the program that started wicket (JSON text or a file)')
    .option('--thinking-display <mode>', 'stream-json: how thinking is shown (not applied: thinking blocks come as the API sends them)')
    .addOption(new Option('--permission-prompts <who>', 'stream-json: host (canUseTool answers) or none (what would ask is refused)').choices(['host', 'none']))
    .option('--no-session-persistence', 'do not save the session')
    .option('--mcp-config <configs...>', 'MCP servers from JSON files or text ({"mcpServers": {…}})')
    .option('--strict-mcp-config', 'use only the MCP servers of --mcp-config')
    .option('--replay-user-messages', 'stream-json: echo each user message read from stdin')
    .option('--disable-slash-commands', 'no custom commands, skills or MCP prompts in this session')
    .option('-n, --name <name>', 'a name for the session')
    .option('--json-schema <schema>', 'print mode: the answer comes back as structured_output, matching this JSON Schema')
    .option('--permission-prompt-tool <tool>', 'print mode: an MCP tool (mcp__server__tool) answers the permission prompts')
    .option('--agents <json>', 'sub-agents as JSON: {"name": {"description": "…", "prompt": "…", "tools": [...], "model": "…"}}')
    .option('--agent <name>', 'run the session as this agent: its prompt, tools and model')
    .option('-w, --worktree [name]', 'work in a git worktree of its own: .claude/worktrees/<name> on branch worktree-<name>')
    .option('--plugin-dir <path>', 'load the plugin in this folder for this session (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--bare', 'skip hooks, plugins and CLAUDE.md discovery')
    .option(
      '--safe-mode',
      'start without CLAUDE.md, skills, custom commands and agents, plugins, hooks, MCP servers, status line and output style (also CLAUDE_CODE_SAFE_MODE=1)',
    )
    .option('--init', 'run the Setup hooks (trigger "init") before the session')
    .option('--init-only', 'run the Setup hooks (trigger "init") and exit')
    .option('--maintenance', 'run the Setup hooks (trigger "maintenance") before the session')
    .option(
      '-d, --debug [filter]',
      'debug lines (filter: api,tools,hooks,tasks,warn; !name leaves one out): on stderr in print mode, in ~/.wicket/debug/<session>.txt in the app',
    )
    .option('--debug-file <path>', 'append the debug lines to this file')
    .allowExcessArguments(false)
    .showHelpAfterError(false)
    .addHelpText('after', HELP_AFTER);
  p.exitOverride();
  p.configureOutput({ writeErr: () => {}, writeOut: (s) => process.stdout.write(s) });
  return p;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Claude Code's default budget when thinking is on without a number. */
const DEFAULT_THINKING_BUDGET = 31_999;

/** --max-thinking-tokens N (0: off) and --thinking: the budget, 0 for off, undefined when neither is given. */
function thinkingOption(raw: Record<string, any>): number | undefined {
  if (raw.maxThinkingTokens !== undefined) {
    const n = Number(raw.maxThinkingTokens);
    if (!Number.isInteger(n) || n < 0)
      throw new UsageError(`--max-thinking-tokens must be a whole number (0 turns thinking off), got ${raw.maxThinkingTokens}`);
    return n;
  }
  if (raw.thinking === 'disabled') return 0;
  if (raw.thinking === 'adaptive' || raw.thinking === 'enabled') return DEFAULT_THINKING_BUDGET;
  return undefined;
}

export function normalizeOptions(raw: Record<string, any>, prompt: string | undefined, readFile: (f: string) => string): CliOptions {
  const int = (v: unknown, name: string): number | undefined => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number, got ${String(v)}`);
    return n;
  };
  let mode: PermissionMode | undefined;
  const notes: string[] = [];
  if (raw.permissionMode === 'auto') {
    // Claude Code's auto mode has a model decide; wicket asks as in default mode, which never allows more.
    notes.push('--permission-mode auto is not available in wicket: default is used');
  } else if (raw.permissionMode !== undefined) {
    mode = parsePermissionMode(String(raw.permissionMode));
    if (!mode) throw new UsageError(`--permission-mode must be one of default, acceptEdits, plan, bypassPermissions, dontAsk; got ${raw.permissionMode}`);
  }
  const budget = raw.maxBudgetUsd === undefined ? undefined : Number(raw.maxBudgetUsd);
  if (budget !== undefined && !(budget > 0)) throw new UsageError(`--max-budget-usd must be a positive number`);
  const tools = raw.tools === undefined ? undefined : splitToolList(raw.tools);
  if (raw.effort !== undefined && !parseEffort(raw.effort)) {
    throw new UsageError(`--effort must be one of ${EFFORT_LEVELS.join(', ')} or auto; got ${raw.effort}`);
  }
  const thinking = thinkingOption(raw);
  if (raw.thinkingDisplay !== undefined)
    notes.push(`--thinking-display ${raw.thinkingDisplay} is not applied in wicket: thinking blocks come as the API sends them`);
  if (raw.resumeSessionAt !== undefined && raw.resume === undefined) throw new UsageError('--resume-session-at needs --resume <session id>');
  // Nobody answers permission prompts: what would ask is refused (the host's canUseTool is never asked).
  const promptTool = raw.permissionPrompts === 'none' ? undefined : raw.permissionPromptTool;
  // Claude Code takes only a UUID: a session's id names its transcript file.
  if (raw.sessionId !== undefined && !UUID.test(String(raw.sessionId))) throw new UsageError('Invalid session ID. Must be a valid UUID.');
  return {
    print: Boolean(raw.print),
    ...(notes.length ? { notes } : {}),
    ...(thinking !== undefined ? { thinkingBudget: thinking } : {}),
    ...(raw.betas ? { betas: splitToolList(raw.betas) } : {}),
    includeGateTraces: Boolean(raw.includeGateTraces),
    ...(prompt !== undefined ? { prompt } : {}),
    outputFormat: raw.outputFormat,
    inputFormat: raw.inputFormat,
    includePartialMessages: Boolean(raw.includePartialMessages),
    includeHookEvents: Boolean(raw.includeHookEvents),
    verbose: Boolean(raw.verbose),
    maxTurns: int(raw.maxTurns, '--max-turns'),
    maxBudgetUsd: budget,
    model: raw.model,
    fallbackModel: raw.fallbackModel,
    ...(raw.effort !== undefined ? { effort: String(raw.effort) } : {}),
    allowedTools: splitToolList(raw.allowedTools),
    disallowedTools: splitToolList(raw.disallowedTools),
    tools: tools && tools.length === 1 && tools[0] === 'default' ? undefined : tools,
    permissionMode: mode,
    dangerouslySkipPermissions: Boolean(raw.dangerouslySkipPermissions),
    allowDangerouslySkipPermissions: Boolean(raw.allowDangerouslySkipPermissions),
    systemPrompt: raw.systemPromptFile ? readFile(raw.systemPromptFile) : raw.systemPrompt,
    appendSystemPrompt:
      [raw.appendSystemPrompt, raw.appendSystemPromptFile ? readFile(raw.appendSystemPromptFile) : undefined].filter(Boolean).join('\n\n') || undefined,
    addDir: raw.addDir ?? [],
    settings: raw.settings,
    settingSources: settingSources(raw.settingSources),
    continue: Boolean(raw.continue),
    resume: raw.resume,
    sessionId: raw.sessionId,
    forkSession: Boolean(raw.forkSession),
    persistSession: raw.sessionPersistence !== false,
    bare: Boolean(raw.bare),
    safeMode: Boolean(raw.safeMode),
    ...(raw.init || raw.initOnly ? { setup: 'init' as const } : raw.maintenance ? { setup: 'maintenance' as const } : {}),
    initOnly: Boolean(raw.initOnly),
    ...(raw.debug !== undefined ? { debug: raw.debug === true ? (true as const) : String(raw.debug) } : {}),
    ...(raw.debugFile ? { debugFile: String(raw.debugFile) } : {}),
    mcpConfig: raw.mcpConfig ?? [],
    ...(raw.agents ? { agents: String(raw.agents) } : {}),
    ...(raw.agent ? { agent: String(raw.agent) } : {}),
    ...(raw.worktree !== undefined ? { worktree: raw.worktree === true ? (true as const) : String(raw.worktree) } : {}),
    ...(promptTool ? { permissionPromptTool: String(promptTool) } : {}),
    ...(raw.resumeSessionAt !== undefined ? { resumeSessionAt: String(raw.resumeSessionAt) } : {}),
    ...(raw.managedSettings !== undefined ? { hostManagedSettings: settingsArg(String(raw.managedSettings), readFile) } : {}),
    replayUserMessages: Boolean(raw.replayUserMessages),
    disableSlashCommands: Boolean(raw.disableSlashCommands),
    ...(raw.name ? { name: String(raw.name) } : {}),
    ...(raw.jsonSchema ? { jsonSchema: String(raw.jsonSchema) } : {}),
    strictMcpConfig: Boolean(raw.strictMcpConfig),
    pluginDir: Array.isArray(raw.pluginDir) ? raw.pluginDir.map(String) : [],
  };
}

/** Flags that take several values: the words after one are its values until the next flag (or `--`). */
const VARIADIC_RULE_FLAGS = new Set(['--allowedTools', '--allowed-tools', '--disallowedTools', '--disallowed-tools', '--tools']);
/** What a rule or a tool name looks like: `Read`, `Bash(git log *)`, `mcp__server__tool`. */
const RULE_LIKE = /^(?:mcp__[\w-]+|[A-Z][\w-]*)(?:\(.*\))?$/s;

/**
 * When no prompt was given and the last word of the command line went to a flag that takes several
 * values (`--allowedTools Read "explain this"`), the prompt was most likely swallowed by it: the
 * words that say so, or undefined.
 */
export function swallowedPrompt(argv: readonly string[], prompt: string | undefined): string | undefined {
  if (prompt !== undefined) return undefined;
  let flag: string | undefined;
  for (const arg of argv) {
    if (arg === '--') return undefined;
    if (arg.startsWith('-')) flag = VARIADIC_RULE_FLAGS.has(arg.split('=')[0]!) && !arg.includes('=') ? arg : undefined;
  }
  const last = argv.at(-1);
  if (!flag || last === undefined || last.startsWith('-')) return undefined;
  if (splitRuleList([last]).every((r) => RULE_LIKE.test(r))) return undefined;
  return `${flag} took "${last}" as one of its values, so no prompt was given: put the prompt before the flags, or end the list with --, e.g. wicket ${flag} Read -- "${last}"`;
}
