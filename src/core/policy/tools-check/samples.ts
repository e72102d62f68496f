/**
 * For each built-in tool, an input that fits it in the scratch copy (the files it names are made
 * there, see scratch.ts), a deny rule with a specifier that matches that input where the tool's
 * rules have one, and whether `tools check` may run it for real (a tool that reaches the network,
 * the model, a person or a language server is never run). A tool not listed gets the minimal input
 * its JSON Schema allows, and is run only when it comes from an MCP server.
 */
import path from 'node:path';

export interface Sample {
  input: Record<string, unknown>;
  /** A deny rule with a specifier matching `input`. */
  denySpecifier?: string;
  /** Why it is never run (the read-only check is skipped with this reason). */
  noRun?: string;
  /** A writer's input (the batching check), when `input` itself is read-only. */
  writer?: Record<string, unknown>;
  /** Its own calls each go through the gates and the scheduler (Agent): batching it is by design. */
  delegates?: boolean;
}

/** The files the samples name, made in the scratch copy before its first hash. */
export const SAMPLE_DIR = '.wicket-tools-check';
export const SAMPLE_TEXT = 'a sample line for tools check\n';
const NOTEBOOK = {
  cells: [{ cell_type: 'code', id: 'c1', metadata: {}, source: ['1'], outputs: [], execution_count: null }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
};
export const SAMPLE_NOTEBOOK = `${JSON.stringify(NOTEBOOK)}\n`;

/** `//abs/path`: a rule's absolute path. */
const abs = (p: string) => `/${p}`;

export function builtinSamples(scratch: string): Record<string, Sample> {
  const dir = path.join(scratch, SAMPLE_DIR);
  const text = path.join(dir, 'sample.txt');
  const nb = path.join(dir, 'sample.ipynb');
  const network = 'it reaches the network';
  return {
    Bash: { input: { command: 'ls' }, denySpecifier: 'Bash(ls)', writer: { command: `touch ${SAMPLE_DIR}/new.txt` } },
    Glob: { input: { pattern: `${SAMPLE_DIR}/*.txt` } },
    Grep: { input: { pattern: 'sample', path: dir } },
    Read: { input: { file_path: text }, denySpecifier: `Read(${abs(text)})` },
    Edit: { input: { file_path: text, old_string: 'sample', new_string: 'changed' }, denySpecifier: `Edit(${abs(text)})` },
    Write: { input: { file_path: text, content: 'changed\n' }, denySpecifier: `Edit(${abs(text)})` },
    NotebookEdit: { input: { notebook_path: nb, cell_id: 'c1', new_source: '2' }, denySpecifier: `Edit(${abs(nb)})` },
    WebFetch: { input: { url: 'https://example.com/', prompt: 'What is it?' }, denySpecifier: 'WebFetch(domain:example.com)', noRun: network },
    WebSearch: { input: { query: 'wicket' }, noRun: network },
    TaskOutput: { input: { task_id: 'none' }, noRun: 'it reads a background task' },
    LSP: { input: { operation: 'hover', filePath: text, line: 1, character: 1 }, noRun: 'it asks a language server' },
    Agent: { input: { description: 'look around', prompt: 'List the files.' }, noRun: 'it asks the model', delegates: true },
    ListMcpResourcesTool: { input: {} },
    ReadMcpResourceTool: { input: { server: 'none', uri: 'none://x' }, noRun: 'it names one server’s resource' },
    ToolSearch: { input: { query: 'select:Read' }, noRun: 'it reads the session’s tool list' },
  };
}
