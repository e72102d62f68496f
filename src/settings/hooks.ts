/**
 * The `hooks` settings key, parsed (reference/claude-code.md §4.1): event → matcher groups → handlers.
 * Parsing never throws; every shape problem found in real settings files (a group without a `hooks`
 * array, unknown handler fields, timeouts written in milliseconds, empty lists, unsupported handler
 * types) becomes one warning, and the usable part is kept.
 */
import {
  ALL_CLAUDE_HOOK_EVENTS,
  SUPPORTED_HOOK_EVENTS,
  type AgentHook,
  type CommandHook,
  type HookEvent,
  type HookGroup,
  type HookHandler,
  type HttpHook,
  type McpToolHook,
  type PromptHook,
} from '../base/hook-config.js';

const HANDLER_FIELDS = new Set([
  'type',
  'command',
  'args',
  'timeout',
  'async',
  'asyncRewake',
  'shell',
  'if',
  'statusMessage',
  'once',
  'prompt',
  'model',
  'url',
  'headers',
  'allowedEnvVars',
  'server',
  'tool',
  'input',
  'continueOnBlock',
]);

interface ParseOut {
  groups: HookGroup[];
  warnings: string[];
  /** With `strict`: what was left out of a guarding event's hooks, by JSON path (the run must not go on without it). */
  problems: HookProblem[];
}

export interface HookProblem {
  /** From the settings file's top level: `["hooks", "PreToolUse", 0, "matcher"]`. */
  path: Array<string | number>;
  message: string;
}

/**
 * Events whose hooks can refuse something before it happens (a tool call, a permission, a prompt, a
 * settings change). In a settings file read strictly, a hook of these events that cannot be read is
 * a problem, not a warning: leaving it out could let through what it refuses.
 */
export const GUARD_HOOK_EVENTS: readonly string[] = ['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'ConfigChange'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Where one event's notes go: warnings, or problems for what a guarding event leaves out. */
class Notes {
  readonly unknownFields = new Set<string>();
  constructor(
    private readonly out: ParseOut,
    private readonly label: string,
    private readonly guard: boolean,
  ) {}
  warn(text: string): void {
    this.out.warnings.push(`${this.label}: ${text}`);
  }
  /** `what` is left out of the hooks; `suffix` says so in a warning ("; ignored"). */
  drop(path: Array<string | number>, what: string, suffix: string): void {
    if (this.guard) this.out.problems.push({ path, message: what });
    else this.warn(`${what}${suffix}`);
  }
}

export interface ParseHooksOptions {
  /** A settings file: a guarding event's hook that cannot be read is a problem (GUARD_HOOK_EVENTS). */
  strict?: boolean;
}

/** Parses one file's `hooks` value. `label` names the file in warnings. */
export function parseHooksConfig(
  raw: unknown,
  source: HookGroup['source'],
  sourcePath: string | undefined,
  label: string,
  opts: ParseHooksOptions = {},
): ParseOut {
  const out: ParseOut = { groups: [], warnings: [], problems: [] };
  if (raw === undefined) return out;
  if (!isObject(raw)) {
    out.warnings.push(`${label}: "hooks" must be an object of event names, found ${typeName(raw)}; hooks from this file are ignored`);
    if (opts.strict) out.problems.push({ path: ['hooks'], message: `"hooks" must be an object of event names, found ${typeName(raw)}` });
    return out;
  }
  const events = Object.keys(raw);
  if (events.length === 0) out.warnings.push(`${label}: "hooks" is an empty object`);
  for (const event of events) {
    const notes = new Notes(out, label, opts.strict === true && GUARD_HOOK_EVENTS.includes(event));
    parseEvent(event, raw[event], { source, sourcePath, label }, out, notes);
  }
  return out;
}

interface Origin {
  source: HookGroup['source'];
  sourcePath?: string;
  label: string;
}

function parseEvent(event: string, value: unknown, origin: Origin, out: ParseOut, notes: Notes): void {
  const where = `hooks.${event}`;
  if (!(SUPPORTED_HOOK_EVENTS as readonly string[]).includes(event)) {
    notes.warn(
      ALL_CLAUDE_HOOK_EVENTS.includes(event)
        ? `${where}: wicket does not fire this event; these hooks never run`
        : `${where}: unknown hook event; ignored (known: ${SUPPORTED_HOOK_EVENTS.join(', ')})`,
    );
    return;
  }
  if (!Array.isArray(value)) {
    notes.drop(['hooks', event], `${where} must be an array of matcher groups, found ${typeName(value)}`, '; ignored');
    return;
  }
  if (value.length === 0) notes.warn(`${where} is an empty array`);
  value.forEach((group, i) => {
    const parsed = parseGroup(group, ['hooks', event, i], notes);
    if (parsed)
      out.groups.push({ event: event as HookEvent, ...parsed, source: origin.source, ...(origin.sourcePath ? { sourcePath: origin.sourcePath } : {}) });
  });
  if (notes.unknownFields.size) notes.warn(`${where} handler has unrecognised field(s): ${[...notes.unknownFields].join(', ')} (ignored)`);
}

/** `hooks.PreToolUse[0].hooks[1]` for a path. */
function pathText(path: Array<string | number>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function parseGroup(group: unknown, at: Array<string | number>, notes: Notes): Pick<HookGroup, 'matcher' | 'hooks'> | undefined {
  const where = pathText(at);
  if (!isObject(group)) {
    notes.drop(at, `${where}: a matcher group must be an object, found ${typeName(group)}`, '; ignored');
    return undefined;
  }
  let matcher: string | undefined;
  if (group.matcher !== undefined && group.matcher !== null) {
    if (typeof group.matcher !== 'string') {
      notes.drop([...at, 'matcher'], `${where}.matcher must be a string, found ${typeName(group.matcher)}`, '; this group is ignored');
      return undefined;
    }
    matcher = group.matcher;
    const problem = matcherProblem(matcher);
    if (problem) {
      notes.drop([...at, 'matcher'], `${where}.matcher ${JSON.stringify(matcher)} is not a valid regular expression (${problem})`, '; this group is ignored');
      return undefined;
    }
  }
  if (!Array.isArray(group.hooks)) {
    const hint = 'command' in group ? ' (command placed directly on the group; wrap it as "hooks": [{"type": "command", "command": …}])' : '';
    notes.drop(at, `${where}: matcher group has no "hooks" array${hint}`, '; ignored');
    return undefined;
  }
  if (group.hooks.length === 0) notes.warn(`${where}.hooks is an empty array`);
  const hooks: HookHandler[] = [];
  group.hooks.forEach((h, j) => {
    const handler = parseHandler(h, [...at, 'hooks', j], notes);
    if (handler) hooks.push(handler);
  });
  return { ...(matcher !== undefined ? { matcher } : {}), hooks };
}

type HandlerParser = (h: Record<string, unknown>, where: string, warnings: string[]) => HookHandler | undefined;

function parseHandler(h: unknown, at: Array<string | number>, notes: Notes): HookHandler | undefined {
  const where = pathText(at);
  if (!isObject(h)) {
    notes.drop(at, `${where}: a hook handler must be an object, found ${typeName(h)}`, '; ignored');
    return undefined;
  }
  for (const key of Object.keys(h)) if (!HANDLER_FIELDS.has(key)) notes.unknownFields.add(key);
  const type = h.type ?? 'command';
  const parse: HandlerParser | undefined =
    type === 'command'
      ? commandHandler
      : type === 'http'
        ? httpHandler
        : type === 'prompt' || type === 'agent'
          ? promptHandler
          : type === 'mcp_tool'
            ? mcpToolHandler
            : undefined;
  if (!parse) {
    notes.drop(
      [...at, 'type'],
      `${where}: hooks of type ${JSON.stringify(type)} are not supported by wicket (only "command", "http", "prompt", "agent" and "mcp_tool")`,
      '; skipped',
    );
    return undefined;
  }
  const said: string[] = [];
  const handler = parse(h, where, said);
  // A handler parser says why it left the handler out in its last line, ending "; skipped".
  const reason = handler ? undefined : said.pop();
  for (const line of said) notes.warn(line);
  if (!handler) {
    if (reason) notes.drop(at, reason.replace(/; skipped$/, ''), '; skipped');
    return undefined;
  }
  const warnings: string[] = [];
  const timeout = parseTimeout(h.timeout, where, warnings);
  for (const line of warnings) notes.warn(line);
  if (timeout !== undefined) handler.timeout = timeout;
  if (typeof h.if === 'string' && h.if.trim()) handler.if = h.if;
  if (typeof h.statusMessage === 'string') handler.statusMessage = h.statusMessage;
  if (h.once === true) handler.once = true;
  return handler;
}

function commandHandler(h: Record<string, unknown>, where: string, warnings: string[]): CommandHook | undefined {
  if (typeof h.command !== 'string' || h.command.trim() === '') {
    warnings.push(`${where}: "command" must be a non-empty string; skipped`);
    return undefined;
  }
  if (h.type === undefined) warnings.push(`${where}: "type" is missing; treated as "command"`);
  const handler: CommandHook = { type: 'command', command: h.command };
  if (Array.isArray(h.args)) handler.args = h.args.map(String);
  if (h.async === true || h.asyncRewake === true) handler.async = true;
  if (typeof h.shell === 'string') handler.shell = h.shell;
  return handler;
}

function httpHandler(h: Record<string, unknown>, where: string, warnings: string[]): HttpHook | undefined {
  if (typeof h.url !== 'string' || !/^https?:\/\//i.test(h.url)) {
    warnings.push(`${where}: "url" must be an http:// or https:// address; skipped`);
    return undefined;
  }
  const handler: HttpHook = { type: 'http', url: h.url };
  if (h.headers !== undefined) {
    if (isObject(h.headers) && Object.values(h.headers).every((v) => typeof v === 'string')) handler.headers = h.headers as Record<string, string>;
    else warnings.push(`${where}.headers must be an object of strings; ignored`);
  }
  if (h.allowedEnvVars !== undefined) {
    if (Array.isArray(h.allowedEnvVars) && h.allowedEnvVars.every((v) => typeof v === 'string')) handler.allowedEnvVars = h.allowedEnvVars as string[];
    else warnings.push(`${where}.allowedEnvVars must be an array of variable names; ignored`);
  }
  return handler;
}

/** `type: "prompt"` and `type: "agent"`: the same fields. */
function promptHandler(h: Record<string, unknown>, where: string, warnings: string[]): PromptHook | AgentHook | undefined {
  if (typeof h.prompt !== 'string' || h.prompt.trim() === '') {
    warnings.push(`${where}: "prompt" must be a non-empty string; skipped`);
    return undefined;
  }
  const handler: PromptHook | AgentHook = { type: h.type === 'agent' ? 'agent' : 'prompt', prompt: h.prompt };
  if (typeof h.model === 'string' && h.model.trim()) handler.model = h.model.trim();
  return handler;
}

function mcpToolHandler(h: Record<string, unknown>, where: string, warnings: string[]): McpToolHook | undefined {
  const missing = (['server', 'tool'] as const).filter((k) => typeof h[k] !== 'string' || !(h[k] as string).trim());
  if (missing.length) {
    warnings.push(`${where}: ${missing.map((k) => `"${k}"`).join(' and ')} must be a non-empty string; skipped`);
    return undefined;
  }
  const handler: McpToolHook = { type: 'mcp_tool', server: (h.server as string).trim(), tool: (h.tool as string).trim() };
  if (isObject(h.input)) handler.input = h.input;
  else if (h.input !== undefined) warnings.push(`${where}.input must be an object of the tool's arguments; ignored`);
  return handler;
}

function parseTimeout(value: unknown, where: string, warnings: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    warnings.push(`${where}.timeout must be a positive number of seconds, found ${JSON.stringify(value)}; the default is used`);
    return undefined;
  }
  if (value >= 1000) {
    warnings.push(`${where}.timeout ${value} (seconds) - probably meant milliseconds; the unit is seconds, so it is kept as ${value} s`);
  }
  return value;
}

/** Undefined when the matcher is usable; else why not. */
export function matcherProblem(matcher: string): string | undefined {
  if (matcher === '*' || isPlainMatcher(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Only names and separators: matched as exact names, not as a regular expression. */
export function isPlainMatcher(matcher: string): boolean {
  return /^[A-Za-z0-9_\- ,|]*$/.test(matcher);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}
