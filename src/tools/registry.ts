/**
 * The built-in tools (and, later, MCP tools) as one list; lookup by name or alias.
 * Each tool module adds itself to BUILTIN_TOOLS here.
 */
import type { Tool } from '../base/tool.js';
import { askUserQuestionTool } from './ask-user-question/index.js';
import { enterPlanModeTool } from './enter-plan-mode/index.js';
import { exitPlanModeTool } from './exit-plan-mode/index.js';
import { globTool } from './glob/index.js';
import { grepTool } from './grep/index.js';
import { readTool } from './read/index.js';
import { editTool } from './edit/index.js';
import { writeTool } from './write/index.js';
import { notebookEditTool } from './notebook-edit/index.js';
import { webFetchTool } from './web-fetch/index.js';
import { webSearchTool } from './web-search/index.js';
import { bashTool } from './bash/index.js';
import { taskOutputTool, taskStopTool } from './tasks/index.js';
import { todoWriteTool } from './todo-write/index.js';
import { agentTool } from './agent/index.js';
import { skillTool } from './skill/index.js';
import { lspTool } from './lsp/index.js';

export const BUILTIN_TOOLS: Tool[] = [
  bashTool,
  globTool,
  grepTool,
  readTool,
  editTool,
  writeTool,
  notebookEditTool,
  webFetchTool,
  webSearchTool,
  taskOutputTool,
  taskStopTool,
  enterPlanModeTool,
  exitPlanModeTool,
  askUserQuestionTool,
  todoWriteTool,
  agentTool,
  skillTool,
  lspTool,
];

/**
 * The tools only a person (or an SDK host standing for one) answers: print mode without a permission
 * prompt tool leaves them out, as Claude Code does, and sub-agents never get them.
 */
export const PERSON_TOOLS: readonly string[] = ['AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode'];

export function findTool(tools: readonly Tool[], name: string): Tool | undefined {
  return tools.find((t) => t.name === name) ?? tools.find((t) => t.aliases?.includes(name));
}
