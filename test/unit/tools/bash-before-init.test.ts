/** Before the wasm parser has loaded, Bash answers every synchronous question on the safe side. */
import { describe, expect, it } from 'vitest';
import { parseRule } from '../../../src/base/rule-parse.js';
import { bashTool } from '../../../src/tools/bash/index.js';
import { createToolEnv } from '../../support/tool-context.js';

describe('Bash before initBashParser()', () => {
  it('is not read-only, not concurrency-safe, maybe destructive; deny rules match, allow rules do not', async () => {
    const env = createToolEnv();
    try {
      const input = { command: 'ls' };
      expect(bashTool.isReadOnly(input)).toBe(false);
      expect(bashTool.isConcurrencySafe(input)).toBe(false);
      expect(bashTool.isDestructive!(input)).toBe(true);
      const deny = [parseRule('Bash(rm:*)', 'session')];
      expect(bashTool.matchRules!(input, deny, 'deny', env.ctx)).toBe(deny[0]);
      expect(bashTool.matchRules!(input, [parseRule('Bash(ls)', 'session')], 'allow', env.ctx)).toBeUndefined();
      // validateInput loads the parser lazily; then the answers are exact.
      expect(await bashTool.validateInput!(input, env.ctx)).toEqual({ ok: true });
      expect(bashTool.isReadOnly(input)).toBe(true);
      expect(bashTool.matchRules!(input, deny, 'deny', env.ctx)).toBeUndefined();
    } finally {
      env.cleanup();
    }
  });
});
