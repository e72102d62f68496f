/** The built-in slash commands: /help /clear /compact /rewind /resume /branch /model /effort /status /cost /trace /exit (and /config /theme /vim, /permissions, /tools, /mcp, /lsp, /plugin, /reload-plugins, /init, /add-dir, and those of session-info.ts). */
import { EFFORT_LEVELS, MODEL_FAMILIES, modelAliases, modelTakesEffort, parseEffort } from '../../base/models.js';
import type { GateRecord } from '../../base/events.js';
import { displayURL } from '../../api/display-url.js';
import { modeLabel } from '../StatusLine.js';
import { help } from './help.js';
import { configCommand, modelCommand, themeCommand, vimCommand } from './preferences.js';
import { mcpCommand } from './mcp.js';
import { lspCommand } from './lsp.js';
import { permissionsCommand } from './permissions.js';
import { toolsCommand } from './tools.js';
import { pluginCommand, reloadPluginsCommand } from './plugin.js';
import { addDirCommand, initCommand } from './project.js';
import { SESSION_INFO_COMMANDS } from './session-info.js';
import { EVERYDAY_COMMANDS } from './everyday.js';
import { branchCommand, resumeCommand } from './sessions.js';
import type { SessionControl, SlashCommand } from './types.js';

const clear: SlashCommand = {
  name: 'clear',
  aliases: ['reset'],
  description: 'Start a new conversation (clears the screen)',
  source: 'builtin',
  run: () => ({ kind: 'clear' }),
};

const effort: SlashCommand = {
  name: 'effort',
  argumentHint: '[low|medium|high|xhigh|max|auto]',
  description: 'Show or set how much effort the model puts in',
  source: 'builtin',
  run(args, s) {
    const o = s.options;
    const typed = args.trim();
    if (typed) {
      const level = parseEffort(typed);
      if (!level) return { kind: 'info', text: `Unknown effort level "${typed}": use ${EFFORT_LEVELS.join(', ')} or auto.` };
      o.effort = level === 'auto' ? undefined : level;
    }
    const note = o.effort && !modelTakesEffort(o.model) ? ` (${o.model} takes no effort level: not sent)` : '';
    if (typed) return { kind: 'info', text: `Effort set to ${o.effort ?? 'auto'}${note}` };
    return {
      kind: 'info',
      text: `Effort: ${o.effort ?? 'auto (the model’s default)'}${note}\nLevels: ${EFFORT_LEVELS.join(', ')}, auto. Set with /effort <level>.`,
    };
  },
};

/** The model service: provider, region, endpoint, and where the credentials came from. */
function providerLines(o: SessionControl['options']): string[] {
  const via = o.client?.describe?.();
  if (!via) return [`API            ${displayURL(o.env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com')}`];
  return [`Provider       ${via.provider}${via.region ? `, region ${via.region}` : ''}`, `Endpoint       ${via.endpoint}`, `Credentials    ${via.credentials}`];
}

const status: SlashCommand = {
  name: 'status',
  description: 'Settings sources, model, working folder, mode',
  source: 'builtin',
  run(_args, s) {
    const o = s.options;
    const lines = [
      `Model          ${o.model} (small: ${o.smallModel})`,
      `Aliases        ${MODEL_FAMILIES.map((f) => `${f} = ${modelAliases()[f]}`).join(', ')}`,
      `Effort         ${o.effort ?? 'auto'}`,
      `Output style   ${o.outputStyle ?? 'default'}`,
      `Mode           ${modeLabel(o.permission.mode)}`,
      `Working folder ${o.state.cwd}`,
      ...(o.additionalDirs.length ? [`Also allowed   ${o.additionalDirs.join(', ')}`] : []),
      ...providerLines(o),
      `Session        ${o.sessionId}${s.transcriptPath ? `\n               ${s.transcriptPath}` : ''}`,
      `Tools          ${o.tools.map((t) => t.name).join(', ') || '(none)'}`,
      'Settings sources (highest precedence first)',
      ...s.loaded.sources.map((src) => `  ${src.source.padEnd(16)}${src.path ?? '(flags)'}${src.loaded ? '' : '  (not found)'}`),
      ...(s.loaded.warnings.length ? ['Warnings', ...s.loaded.warnings.map((w) => `  ${w}`)] : []),
    ];
    return { kind: 'info', text: lines.join('\n') };
  },
};

const cost: SlashCommand = {
  name: 'cost',
  aliases: ['usage'],
  description: 'Tokens used and cost of this session',
  source: 'builtin',
  run(_args, s) {
    const t = s.totals;
    if (t.byModel.size === 0) return { kind: 'info', text: 'No tokens used yet.' };
    const lines = [`Total cost     $${t.costUsd.toFixed(4)}`, `API time       ${(t.apiMs / 1000).toFixed(1)}s`];
    for (const [m, u] of t.byModel) {
      lines.push(
        `${m}: ${u.usage.input_tokens} in, ${u.usage.output_tokens} out, ${u.usage.cache_read_input_tokens} cache read, ${u.usage.cache_creation_input_tokens} cache write ($${u.costUsd.toFixed(4)})`,
      );
    }
    return { kind: 'info', text: lines.join('\n') };
  },
};

function formatGate(g: GateRecord): string {
  return `    ${g.gate.padEnd(11)}${g.verdict.padEnd(10)}${String(Math.round(g.durationMs)).padStart(5)} ms${g.detail ? `  ${g.detail}` : ''}`;
}

const trace: SlashCommand = {
  name: 'trace',
  argumentHint: '[n|all]',
  description: 'Gate trace of the last tool calls: who let each through or stopped it, and why',
  source: 'builtin',
  run(args, s) {
    if (!s.traces.length) return { kind: 'info', text: 'No tool calls yet.' };
    const n = args.trim() === 'all' ? s.traces.length : Math.max(1, Number(args.trim()) || 5);
    const shown = s.traces.slice(-n);
    const lines = [`Gate trace of the last ${shown.length} call${shown.length === 1 ? '' : 's'}`];
    for (const t of shown) lines.push(`  ${t.isError ? '✗' : '✓'} ${t.summary}`, ...t.trace.map(formatGate));
    return { kind: 'info', text: lines.join('\n') };
  },
};

const compact: SlashCommand = {
  name: 'compact',
  description: 'Replace the conversation by a summary of it (frees the context)',
  argumentHint: '[what the summary should keep]',
  source: 'builtin',
  run: (args, s) =>
    s.messageCount ? { kind: 'compact', ...(args.trim() ? { instructions: args.trim() } : {}) } : { kind: 'info', text: 'Nothing to compact yet.' },
};

const rewind: SlashCommand = {
  name: 'rewind',
  aliases: ['checkpoint'],
  description: 'Restore the code and/or the conversation to before an earlier prompt (also Esc Esc)',
  source: 'builtin',
  run: () => ({ kind: 'rewind' }),
};

const exit: SlashCommand = {
  name: 'exit',
  aliases: ['quit'],
  description: 'Leave wicket',
  source: 'builtin',
  run: () => ({ kind: 'exit' }),
};

export const BUILTIN_COMMANDS: SlashCommand[] = [
  help,
  clear,
  compact,
  rewind,
  resumeCommand,
  branchCommand,
  initCommand,
  addDirCommand,
  modelCommand,
  effort,
  configCommand,
  themeCommand,
  vimCommand,
  permissionsCommand,
  toolsCommand,
  status,
  cost,
  trace,
  mcpCommand,
  lspCommand,
  pluginCommand,
  reloadPluginsCommand,
  ...SESSION_INFO_COMMANDS,
  ...EVERYDAY_COMMANDS,
  exit,
];

export type { SessionControl };
