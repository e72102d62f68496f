import { describe, expect, it } from 'vitest';
import { combinePostToolUse } from '../../../src/hooks/combine.js';
import type { HookVerdict } from '../../../src/hooks/output.js';

const verdict = (label: string, hso: Record<string, unknown>): HookVerdict => ({
  label,
  notices: [],
  json: { hookSpecificOutput: { hookEventName: 'PostToolUse', ...hso } },
});

describe('PostToolUse: output replaced by a hook', () => {
  it('the first hook that gives updatedToolOutput wins; text and image blocks are kept, other values become JSON', () => {
    expect(
      combinePostToolUse([verdict('a', {}), verdict('b', { updatedToolOutput: 'short' }), verdict('c', { updatedToolOutput: 'other' })], 'PostToolUse', 'Read')
        .updatedOutput,
    ).toEqual({
      content: 'short',
      hookName: 'b',
    });
    const blocks = [{ type: 'text', text: 'x' }];
    expect(combinePostToolUse([verdict('a', { updatedToolOutput: blocks })], 'PostToolUse', 'Read').updatedOutput?.content).toEqual(blocks);
    expect(combinePostToolUse([verdict('a', { updatedToolOutput: { lines: 2 } })], 'PostToolUse', 'Read').updatedOutput?.content).toBe('{"lines":2}');
  });

  it('updatedMCPToolOutput counts for MCP tools only', () => {
    const v = [verdict('m', { updatedMCPToolOutput: 'from mcp' })];
    expect(combinePostToolUse(v, 'PostToolUse', 'mcp__github__get_issue').updatedOutput?.content).toBe('from mcp');
    expect(combinePostToolUse(v, 'PostToolUse', 'Read').updatedOutput).toBeUndefined();
  });
});
