/**
 * The `initialize` request: what it carries goes into the session's options before the session is
 * set up (system prompt, agents, JSON schema, the launch-critical settings, disallowed tools and MCP
 * servers), and it is answered, with the same request_id, once the session exists. The SDK does not
 * wait for that answer before it writes the prompt, so nothing here holds up the reading of stdin.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CliOptions } from '../core/setup/options.js';
import { errorMessage } from '../base/errors.js';
import { ControlError, isObject, type ControlPayload } from './control-channel.js';
import { initializePlugins } from './initialize-fields.js';
import type { InitializeRequest, SdkSession } from './session.js';

/** The SDK's own short system prompt, used when the SDK user set none (`systemPrompt: [""]`): not wicket's. */
export const SDK_DEFAULT_SYSTEM_PROMPT = "You are a Claude agent, built on Anthropic's Claude Agent SDK.";

/** Which launch-critical fields of the request were applied (the SDK ends the session when one it sent is not). */
export interface AppliedFields {
  settings_applied?: boolean;
  managed_settings_applied?: boolean;
  disallowed_tools_applied?: boolean;
  mcp_servers_applied?: boolean;
  plugins_applied?: boolean;
}

/**
 * Puts what the request carries into the options the session is set up from. Throws (with a
 * sentence for the initialize error) when a field cannot be used: the session must not start
 * without what its host asked for.
 */
export function applyInitialize(opts: CliOptions, init: InitializeRequest | undefined, cwd: string): AppliedFields {
  if (!init) return {};
  const sp = init.systemPrompt;
  if (Array.isArray(sp)) {
    const text = sp.filter((s) => typeof s === 'string').join('\n\n');
    opts.systemPrompt = text.trim() ? `${SDK_DEFAULT_SYSTEM_PROMPT}\n\n${text}` : SDK_DEFAULT_SYSTEM_PROMPT;
    if (!text.trim()) opts.systemPromptIsSdkDefault = true;
  } else if (typeof sp === 'string') opts.systemPrompt = sp;
  if (typeof init.appendSystemPrompt === 'string' && init.appendSystemPrompt)
    opts.appendSystemPrompt = [opts.appendSystemPrompt, init.appendSystemPrompt].filter(Boolean).join('\n\n');
  if (isObject(init.agents) && Object.keys(init.agents).length) opts.agents = mergedAgents(opts.agents, init.agents);
  if (isObject(init.jsonSchema)) opts.jsonSchema = JSON.stringify(init.jsonSchema);
  if (typeof init.title === 'string' && init.title.trim()) opts.name = init.title.trim();
  const applied: AppliedFields = {};
  if (init.settings !== undefined) {
    opts.hostSettings = settingsText(init.settings, cwd, 'settings');
    applied.settings_applied = true;
  }
  if (init.managedSettings !== undefined) {
    opts.hostManagedSettings = settingsText(init.managedSettings, cwd, 'managedSettings');
    applied.managed_settings_applied = true;
  }
  if (init.disallowedTools !== undefined) {
    if (!Array.isArray(init.disallowedTools) || !init.disallowedTools.every((t) => typeof t === 'string'))
      throw new ControlError('initialize.disallowedTools must be a list of rule strings', 'invalid_request');
    opts.disallowedTools = [...opts.disallowedTools, ...init.disallowedTools];
    applied.disallowed_tools_applied = true;
  }
  if (init.mcpServers !== undefined) {
    if (!isObject(init.mcpServers)) throw new ControlError('initialize.mcpServers must be an object of servers by name', 'invalid_request');
    opts.mcpConfig = [...opts.mcpConfig, JSON.stringify({ mcpServers: init.mcpServers })];
    applied.mcp_servers_applied = true;
  }
  const plugins = initializePlugins(init.plugins);
  if (plugins) {
    opts.pluginDir = [...opts.pluginDir, ...plugins];
    applied.plugins_applied = true;
  }
  return applied;
}

/** --agents and initialize.agents together (the request's win on a shared name). */
function mergedAgents(flag: string | undefined, given: Record<string, unknown>): string {
  let base: Record<string, unknown> = {};
  if (flag) {
    try {
      const parsed: unknown = JSON.parse(flag);
      if (isObject(parsed)) base = parsed;
    } catch {
      // --agents itself is reported when the session is set up.
      return flag;
    }
  }
  return JSON.stringify({ ...base, ...given });
}

/** Settings as JSON text: an object, JSON text, or a file path (relative to the session's folder). */
function settingsText(value: unknown, cwd: string, field: string): string {
  if (isObject(value)) return JSON.stringify(value);
  if (typeof value !== 'string') throw new ControlError(`initialize.${field} must be an object, JSON text or a file path`, 'invalid_request');
  if (value.trim().startsWith('{')) return value;
  try {
    return readFileSync(path.resolve(cwd, value), 'utf8');
  } catch (err) {
    throw new ControlError(`initialize.${field}: cannot read ${value}: ${errorMessage(err)}`, 'invalid_request');
  }
}

type Responder = (request: ControlPayload) => ControlPayload | Promise<ControlPayload>;

/**
 * Answers `initialize` (the first, and any later one: Query.reinitialize) once the session is set up,
 * or with an error when it could not be.
 */
export class Initialization {
  private readonly answerer: Promise<Responder>;
  private settle!: { ready: (r: Responder) => void; fail: (err: Error) => void };

  constructor(session: SdkSession) {
    this.answerer = new Promise<Responder>((ready, fail) => (this.settle = { ready, fail }));
    this.answerer.catch(() => {});
    session.channel.onRequest('initialize', async (request) => (await this.answerer)(request));
  }

  /** The session exists: answers go out from now on. */
  ready(responder: Responder): void {
    this.settle.ready(responder);
  }

  /** The session could not start: initialize is answered with this error. */
  fail(err: unknown): void {
    this.settle.fail(err instanceof Error ? err : new Error(String(err)));
  }
}
