/**
 * What Enter does with the prompt: slash commands run here (built-in or custom), `!command` runs
 * through the Bash tool's gates (shell-command.ts), anything else goes to the model. Every submitted
 * line is added to the project's history.
 */
import { useStdout } from 'ink';
import type { McpSession } from '../mcp-session.js';
import type { PluginSession } from '../plugin-session.js';
import type { AgentOptions } from '../../core/agent-options.js';
import type { ContentBlock } from '../../base/events.js';
import type { PromptMark } from '../../base/prompt-marks.js';
import type { LoadedSettings } from '../../settings/load.js';
import type { TranscriptWriter } from '../../session/transcript.js';
import { findCommand, parseSlash, runCommand, type CommandResult, type SessionControl, type SlashCommand } from '../commands/index.js';
import { expansionOf, gateExpansion } from '../../commands/expansion-gate.js';
import { appendHistory, type HistoryCursor } from '../history.js';
import * as B from '../input-buffer.js';
import { shellCommandOf } from '../shell-command.js';
import type { AgentHandle } from './use-agent.js';
import type { PreferencesControl } from './use-preferences.js';
import type { PickOption } from '../SelectDialog.js';
import type { MemoryHandle } from './use-memory.js';

export interface SubmitDeps {
  base: Omit<AgentOptions, 'signal' | 'askUser'>;
  loaded: LoadedSettings;
  cwd: string;
  configDir: string;
  commands: SlashCommand[];
  transcript?: TranscriptWriter;
  historyFile?: string;
  history: HistoryCursor;
  agent: AgentHandle;
  setBuffer: (b: B.Buffer) => void;
  quit: () => void;
  /** The session's MCP servers, for /mcp. */
  mcp?: McpSession;
  /** /rewind: open the rewind list. */
  openRewind: () => void;
  /** /resume: the picker, or the session named. */
  openResume: (query?: string) => void;
  /** /branch: go on in a new session holding this conversation. */
  branch: () => void;
  /** /plugin: open the plugin screen (absent: /plugin answers with text). */
  openPlugins?: () => void;
  /** The session's plugins, for /reload-plugins. */
  plugins?: PluginSession;
  /** After /clear wiped the screen: start a fresh transcript. */
  onCleared: () => void;
  /** A list to choose from (/model, /theme). */
  openPicker: (spec: PickerSpec) => void;
  /** The settings screen (/config). */
  openConfig: () => void;
  preferences?: PreferencesControl;
  home?: string;
  configDirOverride?: string;
  /** `# text` and /memory: the instruction files by hand. */
  memory?: Pick<MemoryHandle, 'remember' | 'edit'>;
}

export interface PickerSpec {
  title: string;
  options: PickOption[];
  selected?: number;
  onDone: (value: string | undefined) => void;
}

/** `# text`, one line: a line of memory (`## …`, `#!…` and the like go to the model). */
const MEMORY_LINE = /^#(?![#!])\s*(\S.*)$/;

export function useSubmit(d: SubmitDeps): (raw: B.Buffer) => void {
  const { stdout } = useStdout();
  const session = (): SessionControl => ({
    options: d.base,
    loaded: d.loaded,
    cwd: d.cwd,
    configDir: d.configDir,
    totals: d.agent.view.totals,
    traces: d.agent.view.traces,
    commands: d.commands,
    ...(d.transcript ? { transcriptPath: d.transcript.file } : {}),
    messageCount: d.agent.messages.length,
    messages: d.agent.messages,
    ...(d.transcript ? { rename: (name: string) => d.transcript?.name(name) } : {}),
    ...(d.mcp ? mcpControl(d.mcp, d.agent.info) : {}),
    ...(d.openPlugins ? { openPlugins: true } : {}),
    ...(d.plugins ? { reloadPlugins: () => reload(d.plugins!) } : {}),
    note: d.agent.info,
    ...firstCheckpoint(d.agent.prompts()),
    columns: stdout.columns,
    ...(d.preferences ? { preferences: d.preferences } : {}),
    ...(d.home ? { home: d.home } : {}),
    ...(d.configDirOverride ? { configDirOverride: d.configDirOverride } : {}),
  });

  const reload = async (plugins: PluginSession): Promise<{ text: string; warning?: boolean }> => {
    if (d.agent.busy()) return { text: 'Interrupt the current run (esc) before /reload-plugins.', warning: true };
    return plugins.reload();
  };

  const apply = (text: string, result: CommandResult, context?: string, echo = true) => {
    if (result.kind === 'prompt') d.agent.submit(result.text, text, result.allowedTools, context ?? result.context);
    else if (result.kind === 'pick') {
      if (echo) d.agent.view.add({ kind: 'user', text });
      d.openPicker({
        title: result.title,
        options: result.options,
        ...(result.selected !== undefined ? { selected: result.selected } : {}),
        onDone: (value) => {
          if (value !== undefined) void Promise.resolve(result.pick(value)).then((next) => apply(text, next, undefined, false));
        },
      });
    } else if (result.kind === 'config') {
      if (echo) d.agent.view.add({ kind: 'user', text });
      d.openConfig();
    } else if (result.kind === 'exit') d.quit();
    else if (result.kind === 'rewind') d.openRewind();
    else if (result.kind === 'resume') d.openResume(result.query);
    else if (result.kind === 'branch') d.branch();
    else if (result.kind === 'plugins') d.openPlugins?.();
    else if (result.kind === 'compact') {
      if (d.agent.busy()) return d.agent.info('Interrupt the current run (esc) before /compact.', 'warning');
      void d.agent.compact(result.instructions);
    } else if (result.kind === 'clear') {
      if (d.agent.status.working) return d.agent.info('Interrupt the current run (esc) before /clear.', 'warning');
      d.agent.clear();
      stdout.write('\x1b[2J\x1b[3J\x1b[H');
      d.onCleared();
    } else if (result.kind === 'edit') {
      if (d.memory) d.memory.edit(result.file);
      else d.agent.info(`Open ${result.file} in your editor.`);
    } else {
      if (echo) d.agent.view.add({ kind: 'user', text });
      d.agent.info(result.text, result.tone ?? 'info');
    }
  };

  /** True when the text was a command (or an unknown one); false to send it as a prompt. */
  const slash = (text: string): boolean => {
    const name = parseSlash(text)?.name ?? '';
    if (!findCommand(d.commands, name)) {
      if (name.includes('/')) return false;
      d.agent.info(`Unknown command /${name}. /help lists the commands.`, 'warning');
      return true;
    }
    void expandGate(findCommand(d.commands, name)!, text).then(async (gate) => {
      if (!gate) return;
      const result = await runCommand(d.commands, text, session());
      if (result) apply(text, result, gate.context);
    });
    return true;
  };

  /** UserPromptExpansion hooks, for a command whose text goes to the model; undefined when one blocked it (the transcript says why). */
  const expandGate = async (cmd: SlashCommand, text: string): Promise<{ context?: string } | undefined> => {
    const parsed = parseSlash(text);
    if (!cmd.expands || !parsed) return {};
    const origin = cmd.source === 'project' || cmd.source === 'user' || cmd.source === 'plugin' || cmd.source === 'mcp' ? cmd.source : 'builtin';
    const gate = await gateExpansion(d.base.hooks, expansionOf(cmd.name, parsed.args, origin, text), new AbortController().signal);
    for (const n of gate.notices) d.agent.info(n, 'warning');
    if (gate.ok) return gate.context ? { context: gate.context } : {};
    d.agent.view.add({ kind: 'user', text });
    d.agent.info(gate.message, 'error');
    return undefined;
  };

  return (raw: B.Buffer) => {
    const text = B.expand(raw).trim();
    if (!text) return;
    d.history.push(text);
    if (d.historyFile) appendHistory(d.historyFile, text);
    d.setBuffer(B.emptyBuffer);
    if (text.startsWith('/') && slash(text)) return;
    const command = shellCommandOf(text);
    if (command !== undefined) return d.agent.shell(command);
    const line = MEMORY_LINE.exec(text);
    if (line?.[1] && !text.includes('\n') && d.memory?.remember(line[1].trim())) return;
    const images = B.images(raw);
    if (!images.length) return d.agent.submit(text, raw.text.trim());
    // Claude Code's shape: the text (with its `[Image #N]`), then each image.
    const blocks: ContentBlock[] = [
      { type: 'text', text },
      ...images.map((i) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: i.mediaType, data: i.data } })),
    ];
    d.agent.submit(blocks, raw.text.trim());
  };
}

function mcpControl(mcp: McpSession, info: AgentHandle['info']): Pick<SessionControl, 'mcpServers' | 'mcpSignIn' | 'mcpSignOut' | 'mcpControl'> {
  return {
    mcpServers: mcp.servers.list(),
    mcpControl: (name, verb) => mcp.control(name, verb),
    mcpSignIn: (name) => mcp.signIn(name, info),
    mcpSignOut: (name) => mcp.signOut(name),
  };
}

function firstCheckpoint(marks: readonly PromptMark[]): { firstCheckpoint?: number } {
  const id = marks.find((m) => m.checkpoint !== undefined)?.checkpoint;
  return id === undefined ? {} : { firstCheckpoint: id };
}
