import { getNodeValue, parseTree } from 'jsonc-parser';
import { describe, expect, it, vi } from 'vitest';

vi.mock('jsonc-parser', async (original) => {
  const real = await original<typeof import('jsonc-parser')>();
  return { ...real, parseTree: vi.fn(real.parseTree) };
});
import { readJsonText } from '../../../src/settings/json-text.js';

/** What the syntax tree alone reads (the slow path every text took before). */
const treeValue = (text: string) => {
  const root = parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  return root ? getNodeValue(root) : undefined;
};

describe('JSON text', () => {
  it('reads plain JSON as the syntax tree does: nesting, escapes, numbers, repeated keys (the last counts)', () => {
    const texts = [
      '{"a": 1, "b": [true, null, -2.5e3, "x\\"y\\u00e9\\n"], "c": {"d": {}}}',
      '{"k": 1, "k": 2}',
      '  \n{"big": 12345678901234567890, "small": 1e-300}\n',
      '[]',
    ];
    for (const text of texts) expect(readJsonText(text, { jsonc: false }).value).toEqual(treeValue(text));
  });

  it('still places a key and finds a repeated one in plain JSON', () => {
    const text = '{\n  "permissions": {\n    "allow": ["Read"],\n    "allow": ["Edit"]\n  }\n}\n';
    const json = readJsonText(text, { jsonc: false });
    expect(json.problem).toBeUndefined();
    expect(json.at(['permissions', 'allow'])).toEqual({ line: 3, column: 14 });
    expect(json.at(['permissions', 'nothing', 'here'])).toEqual({ line: 2, column: 18 });
    expect(json.duplicateKey()).toMatchObject({ line: 4, message: expect.stringContaining('"allow" is written twice') });
  });

  it('finds a repeated key anywhere, and none where keys only look alike (colons, quotes and escapes inside strings)', () => {
    const repeated = [
      '{"a": [{"x": 1}, {"y": 2, "y": 3}]}',
      '{"env": {"A": "1"}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a:b"}]}]}, "env": {}}',
      '{"a\\"b": 1, "a\\"b": 2}',
      '{"1": 1, "1": 2}',
    ];
    for (const text of repeated) expect(readJsonText(text, { jsonc: true }).duplicateKey(), text).toBeDefined();
    const single = [
      '{"a": "x:y", "b": ["\\"c\\":", {"d": "e\\\\"}], "f": {"g": {"h": [1, {"i": ""}]}}}',
      '{"k": "\\u0022k\\u0022: 1", "kk": {}}',
      '{}',
      '[{"a": 1}, {"a": 2}]',
    ];
    for (const text of single) expect(readJsonText(text, { jsonc: true }).duplicateKey(), text).toBeUndefined();
  });

  it('takes comments and trailing commas only as JSONC, and places the problem otherwise', () => {
    const text = '{\n  // mine\n  "a": 1,\n}\n';
    expect(readJsonText(text, { jsonc: true })).toMatchObject({ value: { a: 1 } });
    expect(readJsonText(text, { jsonc: false }).problem).toMatchObject({ line: 2, column: 3, message: 'comments are not allowed in JSON' });
  });

  it('keeps a __proto__ key off the prototype of what it reads', () => {
    const json = readJsonText('{"__proto__": {"polluted": true}, "a": 1}', { jsonc: false });
    expect((json.value as Record<string, unknown>).a).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a Claude Code ~/.claude.json of hundreds of kilobytes without building the syntax tree until a position is asked', () => {
    const projects: Record<string, unknown> = {};
    for (let i = 0; i < 80; i++)
      projects[`/home/u/code/project-${i}`] = {
        allowedTools: [],
        mcpServers: {},
        history: Array.from({ length: 20 }, (_, j) => ({ display: `fix the failing test number ${j} in the parser module`, pastedContents: {} })),
      };
    const text = JSON.stringify({ numStartups: 120, projects }, null, 2);
    expect(text.length).toBeGreaterThan(200_000);
    // The tree took 150 ms and more for such a file: counted by its calls, not by a clock a loaded machine moves.
    vi.mocked(parseTree).mockClear();
    const json = readJsonText(text, { jsonc: false });
    expect(Object.keys((json.value as { projects: object }).projects)).toHaveLength(80);
    expect(parseTree).not.toHaveBeenCalled();
    expect(json.at(['projects', '/home/u/code/project-3']).line).toBe(text.split('\n').findIndex((l) => l.includes('"/home/u/code/project-3"')) + 1);
    expect(parseTree).toHaveBeenCalledTimes(1);
  });
});
