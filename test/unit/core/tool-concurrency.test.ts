/** How many tool calls run side by side: wicket's variable, else Claude Code's, else 10; nonsense falls back to 10. */
import { describe, expect, it } from 'vitest';
import { toolConcurrency } from '../../../src/core/setup/model-choice.js';

describe('toolConcurrency', () => {
  it('reads WICKET_MAX_TOOL_CONCURRENCY, then CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY', () => {
    expect(toolConcurrency({})).toBe(10);
    expect(toolConcurrency({ CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '1' })).toBe(1);
    expect(toolConcurrency({ WICKET_MAX_TOOL_CONCURRENCY: '3', CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '1' })).toBe(3);
    expect(toolConcurrency({ CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: '0' })).toBe(10);
    expect(toolConcurrency({ CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY: 'lots' })).toBe(10);
  });
});
