/**
 * What an agent's definition gives each of its runs, set up when the run starts and taken down when
 * it ends: its memory folder (made, and open to Read/Write/Edit), its preloaded skills, its MCP
 * servers (its own connected by the session, the session's named ones kept), and its hooks. What
 * cannot be set up is a warning, and the agent runs without it.
 */
import { inlineBashVia } from '../../commands/inline-shell.js';
import type { ToolContext } from '../../base/tool.js';
import type { AgentDefinition } from './definitions.js';
import { agentMemoryDir, ensureMemoryDir, memoryRules } from './memory.js';
import { preloadSkills } from './preload.js';

type RunSubagent = NonNullable<ToolContext['runSubagent']>;

/** `run`, with the definition's extras added to each run; `configDir` is where user memory lives. */
export function withDefinition(run: RunSubagent, def: AgentDefinition, ctx: ToolContext, configDir: string): RunSubagent {
  if (!def.memory && !def.skills?.length && !def.mcpServers?.length && !def.hooks?.length) return run;
  return async (spec, signal, onEvent, o) => {
    const warnings: string[] = [];
    let allow;
    if (def.memory) {
      const dir = agentMemoryDir(def.memory, def.name, { projectDir: spec.cwd ?? ctx.projectRoot, configDir, env: ctx.env });
      const why = ensureMemoryDir(dir);
      if (why) warnings.push(`agent ${def.name}: ${why}`);
      allow = memoryRules(dir);
    }
    const skills = await preloadSkills(
      def.name,
      def.skills ?? [],
      { projectRoot: ctx.projectRoot, configDir, sessionId: ctx.sessionId },
      ctx.runGatedCall && inlineBashVia(ctx.runGatedCall),
    );
    const servers = ctx.connectAgentServers ? await ctx.connectAgentServers(def, ctx) : { tools: [], warnings: [], close: async () => {} };
    try {
      return await run(
        {
          ...spec,
          ...(skills.texts.length ? { context: skills.texts } : {}),
          mcpServers: (def.mcpServers ?? []).filter((s) => !s.config).map((s) => s.name),
          ...(servers.tools.length ? { extraTools: servers.tools } : {}),
          ...(def.hooks?.length ? { hooks: def.hooks } : {}),
          ...(allow ? { allow } : {}),
          warnings: [...(spec.warnings ?? []), ...warnings, ...skills.warnings, ...servers.warnings],
        },
        signal,
        onEvent,
        o,
      );
    } finally {
      await servers.close();
    }
  };
}
