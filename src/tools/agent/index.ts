/**
 * Agent (formerly Task): hands a self-contained task to a sub-agent with its own context and tool
 * set (core/subagent.ts); only its final message comes back. The call itself needs no permission:
 * every call the sub-agent makes passes the gates. `Agent(type)` rules name sub-agent types.
 * With `run_in_background` (or `background: true` in the definition) the call returns at once and
 * the report comes later (background.ts). What else the definition asks for is set up per run (start.ts).
 */
import { buildSystemPrompt } from '../../session/system-prompt.js';
import { readDeniedCheck } from '../../permissions/path-rules.js';
import { resolveModel } from '../../base/models.js';
import type { ParsedRule } from '../../base/rule-parse.js';
import { defineTool, lazySchema, type SubagentResult, type ToolContext, type ToolProgress } from '../../base/tool.js';
import { userConfigDir } from '../../settings/paths.js';
import { Channel } from '../../base/channel.js';
import { loadAgentDefinitions, type AgentDefinition } from './definitions.js';
import { backgroundStartText, startBackgroundAgent, type BackgroundAgentStart } from './background.js';
import { agentReport, agentTrailer } from './report.js';
import { inWorktree } from './worktree.js';
import { agentMemoryDir, MEMORY_TOOLS, memoryPrompt } from './memory.js';
import { withDefinition } from './start.js';
import { startsFresh, worktreeMissing } from '../../base/git-worktree.js';

export interface AgentInput {
  description: string;
  prompt: string;
  subagent_type?: string;
  model?: string;
  run_in_background?: boolean;
  name?: string;
  isolation?: string;
}

const inputSchema = lazySchema((z) =>
  z.strictObject({
    description: z.string().min(1, 'description is empty').describe('A short (3-5 word) description of the task'),
    prompt: z.string().min(1, 'prompt is empty').describe('The task for the agent to perform'),
    subagent_type: z.string().optional().describe('The type of agent to use (default: general-purpose)'),
    model: z.string().optional().describe('sonnet, opus or haiku; the agent definition’s model, or the session’s, when left out'),
    run_in_background: z
      .boolean()
      .optional()
      .describe('Set to true to run this agent in the background: the call returns at once, and you are told when it finishes, with its report'),
    name: z.string().optional().describe('A name for the agent'),
    isolation: z
      .string()
      .optional()
      .describe('"worktree": the agent works in a git worktree of its own (on a new branch), so its edits do not touch the project until you merge them'),
  }),
);

export const agentTool = defineTool<AgentInput, SubagentResult | BackgroundAgentStart>({
  name: 'Agent',
  aliases: ['Task'],
  description: (ctx) => describe(loadAgentDefinitions(ctx.cwd, configDirOf(ctx))),
  inputSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => true,
  async validateInput(input, ctx) {
    if (!ctx.runSubagent) return { ok: false, message: 'sub-agents cannot be started here.' };
    const defs = loadAgentDefinitions(ctx.cwd, configDirOf(ctx));
    const type = input.subagent_type ?? 'general-purpose';
    const def = defs.find((d) => d.name === type);
    if (!def) return { ok: false, message: `there is no agent type "${type}". Available: ${defs.map((d) => d.name).join(', ')}.` };
    const isolation = input.isolation ?? def.isolation;
    if (isolation && isolation !== 'worktree')
      return { ok: false, message: `isolation "${isolation}" is not supported: use "worktree", or leave it out and the agent works in the project itself.` };
    // WorktreeCreate hooks make the worktree themselves: no git repository is needed then.
    const missing = isolation && !ctx.worktreeHooks?.handles?.('WorktreeCreate') ? await worktreeMissing(ctx.cwd) : undefined;
    return missing ? { ok: false, message: `isolation "worktree" needs ${missing}: leave isolation out` } : { ok: true };
  },
  matchRules(input, rules: ParsedRule[]) {
    const type = input.subagent_type ?? 'general-purpose';
    return rules.find((r) => r.specifier === type);
  },
  async checkPermissions() {
    return { behavior: 'allow', reason: "the sub-agent's own calls pass the gates" };
  },
  async *call(input, ctx) {
    const def = loadAgentDefinitions(ctx.cwd, configDirOf(ctx)).find((d) => d.name === (input.subagent_type ?? 'general-purpose'))!;
    const own = withDefinition(ctx.runSubagent!, def, ctx, userConfigOf(ctx));
    // With worktree isolation each run gets a fresh worktree, made when it starts and checked when it ends.
    const runSubagent =
      (input.isolation ?? def.isolation) === 'worktree'
        ? inWorktree(own, ctx.cwd, (cwd) => systemFor(def, ctx, cwd, cwd), startsFresh(ctx.settings), ctx.worktreeHooks)
        : own;
    if (input.run_in_background || def.background) return startBackgroundAgent(specFor(def, input, ctx), input.description, { ...ctx, runSubagent });
    const progress = new Channel<ToolProgress>();
    const done = runSubagent(specFor(def, input, ctx), ctx.signal, (ev) => {
      if (ev.type === 'tool_request') progress.push({ type: 'progress', message: ev.summary ? `${ev.name}: ${ev.summary}` : ev.name });
    }).finally(() => progress.close());
    done.catch(() => {}); // awaited below
    for await (const p of progress) yield p;
    return await done;
  },
  toModelResult(out) {
    if ('background' in out) return { content: backgroundStartText(out) };
    const report = agentReport(out);
    return { content: `${report.text}\n\n${agentTrailer(out)}`, ...(report.isError ? { isError: true } : {}) };
  },
  summary: (input) => `${input.subagent_type ?? 'general-purpose'}: ${input.description}${input.run_in_background ? ' (background)' : ''}`,
  display: (out) =>
    'background' in out
      ? { summary: `started background agent ${out.taskId}` }
      : { summary: `${out.reason === 'completed' ? 'Done' : out.reason} (${out.toolCalls} tool call${out.toolCalls === 1 ? '' : 's'})`, preview: out.text },
});

/** Where user agents live; undefined when the caller did not say (then only built-in and project agents). */
function configDirOf(ctx: { env?: Record<string, string | undefined>; homeDir?: string; configDir?: string }): string | undefined {
  if (ctx.configDir) return ctx.configDir;
  return ctx.homeDir ? userConfigDir(ctx.homeDir, ctx.env?.CLAUDE_CONFIG_DIR || undefined) : undefined;
}

/** Where Claude Code's user files are (user agents, and user-scope agent memory). */
function userConfigOf(ctx: ToolContext): string {
  return configDirOf(ctx) ?? userConfigDir(ctx.homeDir);
}

function specFor(def: AgentDefinition, input: AgentInput, ctx: ToolContext) {
  const model = input.model ?? def.model;
  return {
    agentType: def.name,
    prompt: input.prompt,
    system: systemFor(def, ctx, ctx.cwd, ctx.projectRoot),
    // An agent with memory can always read and write its memory files.
    toolNames: def.tools && def.memory ? [...new Set([...def.tools, ...MEMORY_TOOLS])] : def.tools,
    disallowedTools: def.disallowedTools,
    model: resolveModel(model),
    permissionMode: def.permissionMode,
    maxTurns: def.maxTurns,
    effort: def.effort,
    // Explore and Plan work without the project's and the user's instruction files, as in Claude Code.
    omitInstructions: def.name === 'Explore' || def.name === 'Plan',
  };
}

/**
 * Its own instructions, with the environment of `cwd` and its persistent memory, kept for the
 * project in `projectDir` (the instruction files come with its first message: core/subagent.ts).
 */
function systemFor(def: AgentDefinition, ctx: ToolContext, cwd: string, projectDir: string) {
  const configDir = userConfigOf(ctx);
  const memory = def.memory ? memoryPrompt(agentMemoryDir(def.memory, def.name, { projectDir, configDir, env: ctx.env }), def.memory) : undefined;
  return buildSystemPrompt({
    cwd,
    projectRoot: ctx.projectRoot,
    homeDir: ctx.homeDir,
    configDir,
    systemPrompt: def.systemPrompt || undefined,
    hidden: readDeniedCheck({ ...ctx, cwd }),
    ...(memory ? { appendSystemPrompt: memory } : {}),
  });
}

function describe(defs: AgentDefinition[]): string {
  const lines = defs.map(
    (d) => `- ${d.name}: ${d.description} (Tools: ${d.tools?.join(', ') ?? 'all'})${d.background ? ' (always runs in the background)' : ''}`,
  );
  return `Launch a sub-agent to handle a complex, multi-step task on its own. It works in its own context with its own tools, and only its final report comes back to you, so give it a complete, self-contained task and say exactly what it should report.

Agent types (subagent_type):
${lines.join('\n')}

When to use it:
- open-ended searches across a codebase that would take many rounds of Glob, Grep and Read;
- independent pieces of work that can run side by side: launch several agents in one message;
- a type above whose description matches the task.

When not to: reading one known file, searching for one known name, or a task a few direct tool calls finish.

Its report is not shown to the user: tell them what matters from it.

With run_in_background: true the agent works while you go on; you are told when it finishes, with its report (TaskOutput with its task id waits for the report, TaskStop stops it).`;
}
