/**
 * The JSON Schema every built-in tool sends to the API, pinned: any change to a tool's parameters
 * shows up here in review. Plus accept/reject tables for the parameters Claude Code users rely on.
 */
import { describe, expect, it } from 'vitest';
import { inputJsonSchema, toApiTools } from '../../../src/tools/api-schema.js';
import { BUILTIN_TOOLS, findTool } from '../../../src/tools/registry.js';

const tool = (name: string) => findTool(BUILTIN_TOOLS, name)!;

describe('tool schemas', () => {
  it('has Claude Code’s tool names', () => {
    expect(BUILTIN_TOOLS.map((t) => t.name)).toEqual([
      'Bash',
      'Glob',
      'Grep',
      'Read',
      'Edit',
      'Write',
      'NotebookEdit',
      'WebFetch',
      'WebSearch',
      'TaskOutput',
      'TaskStop',
      'EnterPlanMode',
      'ExitPlanMode',
      'AskUserQuestion',
      'TodoWrite',
      'Agent',
      'Skill',
      'LSP',
    ]);
    expect(findTool(BUILTIN_TOOLS, 'BashOutput')?.name).toBe('TaskOutput');
    expect(findTool(BUILTIN_TOOLS, 'KillShell')?.name).toBe('TaskStop');
  });

  for (const t of BUILTIN_TOOLS) {
    it(`${t.name}: JSON Schema`, () => {
      const schema = inputJsonSchema(t);
      expect(schema.type).toBe('object');
      expect(schema).toMatchSnapshot();
    });
  }

  it('every tool has a description and the API list carries one cache breakpoint at the end', () => {
    const api = toApiTools(BUILTIN_TOOLS, { cwd: '/p', platform: 'linux' });
    for (const t of api) expect(t.description.length).toBeGreaterThan(20);
    expect(api.filter((t) => t.cache_control)).toHaveLength(1);
    expect(api.at(-1)!.cache_control).toEqual({ type: 'ephemeral' });
  });

  const table: Array<[string, unknown, boolean]> = [
    ['Read', { file_path: '/a' }, true],
    ['Read', { file_path: '/a', offset: 10, limit: 5 }, true],
    ['Read', { file_path: '/a', pages: '1-3' }, true],
    ['Read', { file_path: 1 }, false],
    ['Read', { path: '/a' }, false],
    ['Edit', { file_path: '/a', old_string: 'x', new_string: 'y' }, true],
    ['Edit', { file_path: '/a', old_string: 'x', new_string: 'y', replace_all: true }, true],
    ['Edit', { file_path: '/a', old_string: 'x' }, false],
    ['Write', { file_path: '/a', content: '' }, true],
    ['Write', { file_path: '/a' }, false],
    ['NotebookEdit', { notebook_path: '/a.ipynb', new_source: 'x' }, true],
    ['NotebookEdit', { notebook_path: '/a.ipynb', new_source: 'x', cell_type: 'code', edit_mode: 'insert', cell_id: 'c1' }, true],
    ['NotebookEdit', { notebook_path: '/a.ipynb', new_source: 'x', edit_mode: 'bogus' }, false],
    ['Bash', { command: 'ls' }, true],
    ['Bash', { command: 'ls', timeout: 1000, description: 'list', run_in_background: false, dangerouslyDisableSandbox: false }, true],
    ['Bash', { cmd: 'ls' }, false],
    ['Glob', { pattern: '**/*.ts' }, true],
    ['Glob', { pattern: '*.ts', path: 'src' }, true],
    [
      'Grep',
      {
        pattern: 'x',
        output_mode: 'content',
        '-n': true,
        '-i': true,
        '-A': 1,
        '-B': 2,
        '-C': 3,
        head_limit: 5,
        offset: 1,
        multiline: true,
        type: 'js',
        glob: '*.ts',
      },
      true,
    ],
    ['Grep', { pattern: 'x', output_mode: 'lines' }, false],
    ['WebFetch', { url: 'https://example.com', prompt: 'summarize' }, true],
    ['WebFetch', { url: 'https://example.com' }, false],
    ['TaskOutput', { task_id: 't1' }, true],
    ['TaskStop', { task_id: 't1' }, true],
  ];
  for (const [name, input, ok] of table) {
    it(`${name} ${ok ? 'accepts' : 'rejects'} ${JSON.stringify(input)}`, () => {
      expect(tool(name).inputSchema.safeParse(input).success).toBe(ok);
    });
  }
});
