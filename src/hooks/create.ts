import path from 'node:path';
import { randomUuid } from '../base/ids.js';
import {
  combineBatch,
  combineBlock,
  combineJsonContext,
  combinePermissionRequest,
  combinePostToolUse,
  combinePreToolUse,
  combineSessionContext,
  combineUserPrompt,
  watchPathsOf,
} from './combine.js';
import { isAsyncHandler, type HookEvent, type HookGroup } from '../base/hook-config.js';
import { combineElicitation, elicitationPayload, elicitationResultPayload } from './elicitation.js';
import { FileWatch } from './file-watch.js';
import { hookEnv, withEffort, withEnvFile } from './hook-env.js';
import { capText, interpretRun, stringField, type HookVerdict } from './output.js';
import type { HookRunOptions } from './run-command.js';
import { defaultTimeoutSec, hookResponse, runHandler } from './run-handler.js';
import { withoutAgentHooks, type AgentHookDeps } from './run-agent.js';
import type { AskModel } from './run-prompt.js';
import { withoutNoticesOf, worktreePathOf } from './worktree.js';
import { suggestionsPayload } from './payload.js';
import type { HookUsage, Hooks, ToolHookCall } from './types.js';
import { commonPayload, currentCwd, type HooksContext, type Planned, planHandlers } from './hook-plan.js';

export type { HooksContext } from './hook-plan.js';

/** What createHooks needs from the loaded settings. */
export interface HookSettings {
  hooks: HookGroup[];
  env: Record<string, string>;
  /** Set when the settings turn hooks off or limit them to managed ones. */
  hookPolicy?: string;
}

export type SettingsHooks = Required<Hooks>;

const SESSION_END_BUDGET_MS = 1500;

export function createHooks(loaded: HookSettings, ctx: HooksContext): SettingsHooks {
  return new HookGate(loaded, ctx);
}

/** One session's hooks. Methods are bound (arrow fields), so they can be passed around on their own. */
class HookGate implements SettingsHooks {
  private readonly notices: string[] = [];
  /** Text for the model's next prompt (takeContext). */
  private readonly context: string[] = [];
  private readonly env: Record<string, string>;
  /** What prompt hooks' questions and agent hooks' sub-agents spent, for drainUsage(). */
  private readonly spent: HookUsage[] = [];
  /** Agent hooks: their sub-agent's gate (these hooks, minus agent ones), and where its cost and warnings go. */
  private readonly agentDeps: AgentHookDeps = {
    agentHooks: () => new HookGate({ ...this.loaded, hooks: withoutAgentHooks(this.loaded.hooks) }, this.ctx, this.onceRan),
    onAgentRun: (a) => void (this.spent.push(...a.usage), this.notices.push(...a.warnings)),
  };
  private files: FileWatch | undefined;
  /** Prompt hooks ask through the session's model; what they spend counts as the session's (drainUsage). */
  private readonly askWithCost: AskModel = (prompt, o) => this.ctx.askModel!(prompt, { ...o, onUsage: (u) => void this.spent.push(u) });

  constructor(
    private readonly loaded: HookSettings,
    private readonly ctx: HooksContext,
    private readonly onceRan = new Set<string>(),
  ) {
    this.env = hookEnv(loaded.env, ctx);
  }

  /** A gate for one sub-agent's run: the session's groups and its own (`once` hooks count across both). */
  withGroups: SettingsHooks['withGroups'] = (groups) =>
    this.loaded.hookPolicy ? undefined : new HookGate({ ...this.loaded, hooks: [...this.loaded.hooks, ...groups] }, this.ctx, this.onceRan);

  preToolUse: SettingsHooks['preToolUse'] = async (call, signal) => {
    return combinePreToolUse(await this.run('PreToolUse', call.toolName, toolFields(call), { signal, call }));
  };

  postToolUse: SettingsHooks['postToolUse'] = async (call, signal) => {
    const extra = { ...toolFields(call), tool_response: call.toolResponse, duration_ms: call.durationMs };
    return combinePostToolUse(await this.run('PostToolUse', call.toolName, extra, { signal, call }), 'PostToolUse', call.toolName);
  };

  postToolUseFailure: SettingsHooks['postToolUseFailure'] = async (call, signal) => {
    const extra = { ...toolFields(call), error: call.error, is_interrupt: call.isInterrupt, duration_ms: call.durationMs };
    return combinePostToolUse(await this.run('PostToolUseFailure', call.toolName, extra, { signal, call }), 'PostToolUseFailure');
  };

  permissionRequest: SettingsHooks['permissionRequest'] = async (call, signal) => {
    const extra = { tool_name: call.toolName, tool_input: call.toolInput, permission_suggestions: suggestionsPayload(call.suggestions) };
    return combinePermissionRequest(await this.run('PermissionRequest', call.toolName, extra, { signal, call }));
  };

  userPromptSubmit: SettingsHooks['userPromptSubmit'] = async (prompt, signal) => {
    return combineUserPrompt(await this.run('UserPromptSubmit', undefined, { prompt }, { signal }));
  };

  stop: SettingsHooks['stop'] = async (info, signal) => {
    const extra = { stop_hook_active: info.stopHookActive, last_assistant_message: info.lastAssistantMessage, background_tasks: info.backgroundTasks ?? [] };
    return combineBlock(await this.run('Stop', undefined, extra, { signal }), 'Stop');
  };

  subagentStop: SettingsHooks['subagentStop'] = async (info, signal) => {
    const extra = {
      stop_hook_active: info.stopHookActive,
      agent_id: info.agentId,
      agent_type: info.agentType,
      agent_transcript_path: info.agentTranscriptPath ?? '',
      last_assistant_message: info.lastAssistantMessage,
    };
    return combineBlock(await this.run('SubagentStop', info.agentType, extra, { signal }), 'SubagentStop');
  };

  sessionStart: SettingsHooks['sessionStart'] = async (info, signal) => {
    const extra = { source: info.source, ...(info.model ? { model: info.model } : {}) };
    const verdicts = await this.run('SessionStart', info.source, extra, { signal });
    this.showBlocking(verdicts);
    this.watch(watchPathsOf(verdicts));
    return combineSessionContext(verdicts);
  };

  sessionEnd: SettingsHooks['sessionEnd'] = async (info, signal) => {
    const budgetMs = Number(this.ctx.env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) || SESSION_END_BUDGET_MS;
    this.showBlocking(await this.run('SessionEnd', info.reason, { reason: info.reason }, { signal, budgetMs }));
  };

  notification: SettingsHooks['notification'] = async (info, signal) => {
    const extra = { message: info.message, title: info.title ?? 'wicket', notification_type: info.notificationType };
    this.showBlocking(await this.run('Notification', info.notificationType, extra, { signal }));
  };

  preCompact: SettingsHooks['preCompact'] = async (info, signal) => {
    const extra = { trigger: info.trigger, custom_instructions: info.customInstructions ?? '' };
    return combineBlock(await this.run('PreCompact', info.trigger, extra, { signal }), 'PreCompact');
  };

  subagentStart: SettingsHooks['subagentStart'] = async (info, signal) => {
    return combineJsonContext(await this.run('SubagentStart', info.agentType, { agent_id: info.agentId, agent_type: info.agentType }, { signal }));
  };

  postToolBatch: SettingsHooks['postToolBatch'] = async (calls, signal) => {
    if (!this.plan('PostToolBatch', undefined).length) return {}; // the calls' text is built only for a hook that reads it
    const toolCalls = calls.map((c) => ({ tool_name: c.toolName, tool_input: c.toolInput, tool_use_id: c.toolUseId, tool_response: c.toolResponse }));
    return combineBatch(await this.run('PostToolBatch', undefined, { tool_calls: toolCalls }, { signal }));
  };

  postCompact: SettingsHooks['postCompact'] = async (info, signal) => {
    this.showBlocking(await this.run('PostCompact', info.trigger, { trigger: info.trigger, compact_summary: info.summary }, { signal }));
  };

  stopFailure: SettingsHooks['stopFailure'] = async (info) => {
    const extra = {
      error: info.error,
      error_details: info.errorDetails,
      ...(info.lastAssistantMessage ? { last_assistant_message: info.lastAssistantMessage } : {}),
    };
    await this.run('StopFailure', info.error, extra, {});
  };

  cwdChanged: SettingsHooks['cwdChanged'] = async (info, signal) => {
    const verdicts = await this.run('CwdChanged', undefined, { previous_cwd: info.previousCwd }, { signal });
    this.showBlocking(verdicts);
    this.watch(watchPathsOf(verdicts));
  };

  /** FileChanged hooks (matcher: the file's name) for the watched files; they decide nothing. */
  private watch(paths: string[]): void {
    if (!paths.length) return;
    this.files ??= new FileWatch((file, event) => {
      void this.run('FileChanged', path.basename(file), { file_path: file, event }, {}).then((v) => this.showBlocking(v));
    });
    this.files.add(paths, currentCwd(this.ctx));
  }

  instructionsLoaded: SettingsHooks['instructionsLoaded'] = async (files, signal) => {
    if (!this.plan('InstructionsLoaded', undefined).length) return;
    for (const f of files()) {
      const extra = {
        file_path: f.filePath,
        memory_type: f.memoryType,
        load_reason: f.loadReason,
        ...(f.globs ? { globs: f.globs } : {}),
        ...(f.triggerFilePath ? { trigger_file_path: f.triggerFilePath } : {}),
        ...(f.parentFilePath ? { parent_file_path: f.parentFilePath } : {}),
      };
      this.showBlocking(await this.run('InstructionsLoaded', f.loadReason, extra, { signal }));
    }
  };

  configChange: SettingsHooks['configChange'] = async (info, signal) => {
    return combineBlock(await this.run('ConfigChange', info.source, { source: info.source, file_path: info.filePath }, { signal }), 'ConfigChange');
  };

  setup: SettingsHooks['setup'] = async (info, signal) => {
    const verdicts = await this.run('Setup', info.trigger, { trigger: info.trigger }, { signal });
    this.showBlocking(verdicts);
    return combineJsonContext(verdicts);
  };

  userPromptExpansion: SettingsHooks['userPromptExpansion'] = async (info, signal) => {
    const extra = {
      expansion_type: info.expansionType,
      command_name: info.commandName,
      command_args: info.commandArgs,
      command_source: info.commandSource,
      prompt: info.prompt,
    };
    const { sessionTitle: _, ...out } = combineUserPrompt(await this.run('UserPromptExpansion', info.commandName, extra, { signal }));
    return out;
  };

  /** Its output and errors go to the debug log only (hook events); a systemMessage waits for the next prompt. */
  directoryAdded: SettingsHooks['directoryAdded'] = async (info) => {
    const verdicts = await this.run('DirectoryAdded', info.source, { directory: info.directory, source: info.source }, { quiet: true });
    this.context.push(...verdicts.flatMap((v) => stringField(v.json?.systemMessage) ?? []));
    return verdicts.filter((v) => v.failed).length;
  };

  takeContext: SettingsHooks['takeContext'] = () => (this.context.length ? capText(this.context.splice(0).join('\n\n')) : undefined);

  worktreeCreate: SettingsHooks['worktreeCreate'] = async (info, signal) => {
    if (!this.handles('WorktreeCreate')) return undefined;
    const verdicts = await this.run('WorktreeCreate', undefined, { name: info.name }, { signal });
    withoutNoticesOf(this.notices, verdicts);
    return worktreePathOf(verdicts);
  };

  worktreeRemove: SettingsHooks['worktreeRemove'] = async (info, signal) => {
    if (!this.handles('WorktreeRemove')) return false;
    this.showBlocking(await this.run('WorktreeRemove', undefined, { worktree_path: info.worktreePath }, { signal }));
    return true;
  };

  handles: SettingsHooks['handles'] = (event) => this.plan(event, undefined).length > 0;

  elicitation: SettingsHooks['elicitation'] = async (info, signal) => {
    const verdicts = await this.run('Elicitation', info.server, elicitationPayload(info), { signal });
    this.showBlocking(verdicts);
    return combineElicitation(verdicts);
  };

  elicitationResult: SettingsHooks['elicitationResult'] = async (info, signal) => {
    const verdicts = await this.run('ElicitationResult', info.server, elicitationResultPayload(info), { signal });
    this.showBlocking(verdicts);
    return combineElicitation(verdicts);
  };

  drainNotices: SettingsHooks['drainNotices'] = () => this.notices.splice(0, this.notices.length);
  drainUsage: SettingsHooks['drainUsage'] = () => this.spent.splice(0, this.spent.length);

  /** The handlers to run for an event (hook-plan.ts). */
  private plan(event: HookEvent, matchValue: string | undefined, call?: ToolHookCall): Planned[] {
    return planHandlers(this.loaded.hooks, this.ctx, this.onceRan, event, matchValue, call);
  }

  /** Runs the planned handlers in parallel; `async` ones in the background (they decide nothing). */
  private async run(event: HookEvent, matchValue: string | undefined, extra: Record<string, unknown>, opts: RunOpts): Promise<HookVerdict[]> {
    const planned = this.plan(event, matchValue, opts.call);
    if (planned.length === 0) return [];
    const stdin = JSON.stringify({ ...commonPayload(this.ctx, event), ...extra });
    for (const p of planned) if (isAsyncHandler(p.hook)) void this.runOne(event, p, stdin, opts);
    return Promise.all(planned.filter((p) => !isAsyncHandler(p.hook)).map((p) => this.runOne(event, p, stdin, opts)));
  }

  private async runOne(event: HookEvent, p: Planned, stdin: string, opts: RunOpts): Promise<HookVerdict> {
    if (p.hook.once) this.onceRan.add(p.key);
    const timeoutMs = Math.min((p.hook.timeout ?? defaultTimeoutSec(p.hook, event, this.ctx.defaultTimeoutSec)) * 1000, opts.budgetMs ?? Infinity);
    const ids = { hook_id: randomUuid(), hook_name: p.name, hook_event: event };
    this.ctx.onHookEvent?.({ subtype: 'hook_started', ...ids });
    const env = withEnvFile(withEffort(p.env ? { ...this.env, ...p.env } : this.env, this.ctx), event, this.ctx.envFileDir);
    const runOpts: HookRunOptions = { cwd: currentCwd(this.ctx), env, timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) };
    const result = await runHandler(p.hook, event, stdin, { ...this.ctx, ...this.agentDeps, askModel: this.ctx.askModel && this.askWithCost }, runOpts);
    this.ctx.onHookEvent?.(hookResponse(ids, result));
    const verdict = interpretRun(result, p.label, timeoutMs / 1000);
    if (!opts.quiet) this.notices.push(...verdict.notices);
    return verdict;
  }

  /** Exit 2 on events that cannot block: stderr is shown to the person. */
  private showBlocking(verdicts: HookVerdict[]): void {
    for (const v of verdicts) if (v.blocking !== undefined) this.notices.push(`${v.label}: ${v.blocking}`);
  }
}

interface RunOpts {
  signal?: AbortSignal | undefined;
  call?: ToolHookCall;
  /** Total time left for this event's hooks (SessionEnd). */
  budgetMs?: number;
  /** Problems and systemMessages are not for the person (DirectoryAdded: the debug log has them). */
  quiet?: boolean;
}

function toolFields(call: ToolHookCall): Record<string, unknown> {
  return { tool_name: call.toolName, tool_input: call.toolInput, tool_use_id: call.toolUseId };
}
