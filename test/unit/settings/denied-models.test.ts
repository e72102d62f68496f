/** Settings deniedModels: read from the managed policy only, and it blocks the model, fallbacks and every spelling of a version. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelDenied } from '../../../src/base/models.js';
import { chooseFallbackModels, requireAvailable } from '../../../src/core/setup/model-choice.js';
import { type Dirs, load, makeDirs, writeJson } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

describe('deniedModels', () => {
  it('comes from the managed policy only; a user file that sets it is named in a warning', () => {
    writeJson(d.userFile, { deniedModels: ['haiku'] });
    const userOnly = load(d);
    expect(userOnly.merged.deniedModels).toBeUndefined();
    expect(userOnly.warnings.join('\n')).toContain('"deniedModels" is read from the managed policy only; ignored here');
    writeJson(d.managed, { deniedModels: ['opus'] });
    expect(load(d).merged.deniedModels).toEqual(['opus']);
  });

  it('stops a session on a blocked model and leaves blocked fallbacks out', () => {
    writeJson(d.managed, { deniedModels: ['claude-opus-4-1'] });
    const merged = load(d).merged;
    expect(() => requireAvailable('claude-opus-4-1-20250805', merged)).toThrow(/blocked by the managed policy's deniedModels/);
    expect(() => requireAvailable('claude-sonnet-4-5', merged)).not.toThrow();
    expect(chooseFallbackModels('claude-opus-4-1,claude-haiku-4-5', merged)).toEqual({ models: ['claude-haiku-4-5'], leftOut: ['claude-opus-4-1'] });
  });

  it('blocks a family by alias, a version in every spelling, and later minor versions of an id without one', () => {
    expect(modelDenied('claude-opus-4-1-20250805', ['opus'])).toBe(true);
    expect(modelDenied('us.anthropic.claude-opus-4-5-20251101-v1:0', ['claude-opus-4-5'])).toBe(true);
    expect(modelDenied('claude-opus-4-5', ['claude-opus-4'])).toBe(true);
    expect(modelDenied('claude-opus-4-50', ['claude-opus-4-5'])).toBe(false);
    expect(modelDenied('claude-sonnet-4-5', ['opus', 'claude-haiku-4-5'])).toBe(false);
    expect(modelDenied('claude-sonnet-4-5', [])).toBe(false);
  });
});
