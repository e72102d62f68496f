/**
 * What the Agent SDK gave this session: the control channel and the `initialize` request. The
 * session's other parts read the SDK's guards from here: `hooks` (hook callbacks) and
 * `sdkMcpServers` with their manifests (in-process MCP servers reached through `mcp_message`).
 */
import { ControlChannel, isObject, type ControlChannelOptions, type ControlPayload } from './control-channel.js';

/** One `initialize.hooks[Event][i]`: the callbacks to ask when the matcher matches. */
export interface SdkHookMatcher {
  matcher?: string;
  hookCallbackIds: string[];
  /** Seconds. */
  timeout?: number;
  onFailure?: string;
}

/** An in-process server's `initialize` and `tools/list` results, captured by the SDK before it sent initialize. */
export interface SdkMcpServerManifest {
  initializeResult?: ControlPayload;
  toolsListResult?: ControlPayload;
}

/** The `initialize` request as the SDK sends it (each field only when used). */
export interface InitializeRequest extends ControlPayload {
  subtype: 'initialize';
  hooks?: Record<string, SdkHookMatcher[]>;
  sdkMcpServers?: string[];
  sdkMcpServerConfigs?: Record<string, unknown>;
  sdkMcpServerManifests?: Record<string, SdkMcpServerManifest>;
  jsonSchema?: Record<string, unknown>;
  /** `[""]` when the SDK user set none (the SDK's short default), `["text"]` for a string; absent for the preset. */
  systemPrompt?: string[];
  appendSystemPrompt?: string;
  agents?: Record<string, ControlPayload>;
  title?: string;
  settings?: unknown;
  managedSettings?: unknown;
  disallowedTools?: string[];
  mcpServers?: Record<string, unknown>;
}

export interface SdkSessionOptions extends ControlChannelOptions {
  /** `--permission-prompt-tool stdio`: calls that would ask a person are put to the SDK (`can_use_tool`). */
  permissionPromptStdio?: boolean;
}

export class SdkSession {
  readonly channel: ControlChannel;
  readonly permissionPromptStdio: boolean;
  /** The initialize request, once read (undefined when the input gave none before its first user message). */
  init: InitializeRequest | undefined;

  constructor(opts: SdkSessionOptions) {
    this.channel = new ControlChannel(opts);
    this.permissionPromptStdio = Boolean(opts.permissionPromptStdio);
  }

  /** The SDK's hook callbacks by event (`initialize.hooks`), to be asked with `hook_callback`. */
  get hooks(): Record<string, SdkHookMatcher[]> {
    return sdkHooks(this.init?.hooks);
  }

  /** The names of the SDK's in-process MCP servers (`initialize.sdkMcpServers`), reached with `mcp_message`. */
  get sdkMcpServers(): string[] {
    const names = this.init?.sdkMcpServers;
    return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string' && n !== '') : [];
  }

  /** Their `initialize` / `tools/list` results, when the SDK captured them (else wicket does the handshake). */
  get sdkMcpServerManifests(): Record<string, SdkMcpServerManifest> {
    const m = this.init?.sdkMcpServerManifests;
    return isObject(m) ? (m as Record<string, SdkMcpServerManifest>) : {};
  }
}

function sdkHooks(raw: unknown): Record<string, SdkHookMatcher[]> {
  if (!isObject(raw)) return {};
  const out: Record<string, SdkHookMatcher[]> = {};
  for (const [event, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue;
    const matchers = list.filter(
      (m): m is SdkHookMatcher => isObject(m) && Array.isArray(m.hookCallbackIds) && m.hookCallbackIds.every((id) => typeof id === 'string'),
    );
    if (matchers.length) out[event] = matchers;
  }
  return out;
}
