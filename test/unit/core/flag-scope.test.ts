/** Flags given where they have no effect are named in a warning; fallback models are chosen the same way in every mode. */
import { describe, expect, it } from 'vitest';
import { flagScopeNotes } from '../../../src/core/setup/flag-scope.js';
import { chooseFallbackModels } from '../../../src/core/setup/model-choice.js';
import { normalizeOptions } from '../../../src/cli/options.js';

const opts = (raw: Record<string, unknown>) => normalizeOptions({ outputFormat: 'text', inputFormat: 'text', ...raw }, 'hi', () => '');

describe('flagScopeNotes', () => {
  it('names the stream-json flags given to print mode with text or json output', () => {
    const o = opts({ print: true, outputFormat: 'json', includePartialMessages: true, includeHookEvents: true, includeGateTraces: true });
    expect(flagScopeNotes(o, 'print')).toEqual([
      '--include-partial-messages is not supported without --output-format stream-json: it has no effect',
      '--include-hook-events is not supported without --output-format stream-json: it has no effect',
      '--include-gate-traces is not supported without --output-format stream-json: it has no effect',
    ]);
    expect(flagScopeNotes({ ...o, outputFormat: 'stream-json' }, 'print')).toEqual([]);
  });

  it('names --replay-user-messages outside the stream-json in-and-out mode', () => {
    expect(flagScopeNotes(opts({ print: true, replayUserMessages: true }), 'print')[0]).toMatch(/^--replay-user-messages is not supported/);
    expect(flagScopeNotes(opts({ replayUserMessages: true }), 'sdk')).toEqual([]);
  });

  it('names the print-mode flags given to the interactive app', () => {
    const o = opts({ maxBudgetUsd: '1', jsonSchema: '{}', permissionPromptTool: 'mcp__a__b', outputFormat: 'json', includePartialMessages: true });
    expect(flagScopeNotes(o, 'interactive').map((n) => n.split(' ')[0])).toEqual([
      '--max-budget-usd',
      '--json-schema',
      '--permission-prompt-tool',
      '--output-format',
      '--include-partial-messages',
    ]);
    expect(flagScopeNotes(opts({ verbose: true, fallbackModel: 'haiku' }), 'interactive')).toEqual([]);
  });
});

describe('chooseFallbackModels', () => {
  it('takes the flag over the setting, resolves aliases and leaves out what availableModels does not allow', () => {
    expect(chooseFallbackModels('haiku', { fallbackModel: ['opus'] }).models).toEqual([expect.stringContaining('haiku')]);
    const r = chooseFallbackModels(undefined, { fallbackModel: ['claude-opus-4-1', 'claude-haiku-4-5'], availableModels: ['claude-haiku-4-5'] });
    expect(r).toEqual({ models: ['claude-haiku-4-5'], leftOut: ['claude-opus-4-1'] });
    expect(chooseFallbackModels(undefined, { fallbackModel: 'claude-haiku-4-5' }).models).toEqual(['claude-haiku-4-5']);
    expect(chooseFallbackModels(undefined, {}).models).toEqual([]);
  });
});
