/**
 * `tools check`: every tool of a session answers the three questions (PRODUCT.md §1) in a scratch
 * copy of the project. The caller makes the copy (an MCP server of the check is started in it) and
 * hands in the tools.
 */
import type { Tool } from '../../../base/tool.js';
import { inputJsonSchema } from '../../../tools/api-schema.js';
import { askBeside } from './beside.js';
import { minimalInput } from './nonsense.js';
import { askDenied, askNonsense, type Answer, type CheckSetup } from './questions.js';
import { builtinSamples, type Sample } from './samples.js';

export { makeScratch, type Scratch } from './scratch.js';
export type { Answer, Status } from './questions.js';
export type { Sample } from './samples.js';

export interface ToolCheck {
  tool: string;
  /** `built-in`, or `mcp:<server>`. */
  source: string;
  nonsense: Answer;
  denied: Answer;
  beside: Answer;
}

export interface ToolsCheckReport {
  tools: ToolCheck[];
  failed: number;
}

export interface ToolsCheckOptions extends CheckSetup {
  tools: readonly Tool[];
  /** Run the read-only MCP tools twice (their servers run in the scratch copy). */
  runMcp: boolean;
  /** Where a tool comes from, when its own word (`mcpServer`) does not say. */
  sourceOf?: (tool: Tool) => string | undefined;
  /** Samples for tools the built-in table lacks (or in place of its own), by tool name. */
  samples?: Record<string, Sample>;
  /** Told as each tool is done. */
  onTool?: (c: ToolCheck) => void;
}

export const QUESTIONS = ['nonsense', 'denied', 'beside'] as const;

function sampleFor(tool: Tool, samples: Record<string, Sample>): Sample {
  return samples[tool.name] ?? { input: minimalInput(inputJsonSchema(tool)), ...(tool.mcpServer ? {} : { noRun: 'no sample input to run it with' }) };
}

export async function checkTools(o: ToolsCheckOptions): Promise<ToolsCheckReport> {
  const samples = { ...builtinSamples(o.scratch.project), ...o.samples };
  await Promise.all(o.tools.map((t) => t.warmUp?.().catch(() => {})));
  const out: ToolCheck[] = [];
  for (const tool of o.tools) {
    const sample = sampleFor(tool, samples);
    const c: ToolCheck = {
      tool: tool.name,
      source: tool.mcpServer ? `mcp:${tool.mcpServer.name}` : (o.sourceOf?.(tool) ?? 'built-in'),
      nonsense: await askNonsense(tool, sample, o),
      denied: await askDenied(tool, sample, o),
      beside: await askBeside(tool, sample, o),
    };
    out.push(c);
    o.onTool?.(c);
  }
  return { tools: out, failed: out.filter((c) => QUESTIONS.some((q) => c[q].status === 'FAIL')).length };
}
