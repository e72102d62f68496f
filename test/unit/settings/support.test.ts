/**
 * No knob that does nothing quietly: docs/settings-support.md is the code's own table, every entry
 * names a key or variable Claude Code documents, and loading one wicket does not honour prints one
 * warning naming it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_SUPPORT, DOCUMENTED_ENV_OUTSIDE_SCHEMA } from '../../../src/settings/support-env.js';
import { NESTED_NOT_SUPPORTED, SETTINGS_SUPPORT } from '../../../src/settings/support-settings.js';
import { documentedSettings, documentedVariables, supportTable, supportWarnings } from '../../../src/settings/support.js';
import { attributionOf, attributionPrompt } from '../../../src/session/attribution.js';
import { REPO_ROOT } from '../../support/run-cli.js';

describe('the support table', () => {
  it('docs/settings-support.md is the table the code makes (npx tsx scripts/settings-support.ts)', () => {
    expect(readFileSync(path.join(REPO_ROOT, 'docs', 'settings-support.md'), 'utf8')).toBe(supportTable());
  });

  it('each row of the short table in the README is a row of the whole one', () => {
    const table = supportTable();
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const rows = readme.split('\n').filter((l) => /^\| `[A-Za-z_]+` \|/.test(l));
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) expect(table).toContain(row);
  });

  it('names only keys and variables Claude Code documents, and every documented one has a row', () => {
    const keys = new Set(documentedSettings());
    expect(Object.keys(SETTINGS_SUPPORT).filter((k) => !keys.has(k))).toEqual([]);
    for (const nested of Object.keys(NESTED_NOT_SUPPORTED)) expect(keys.has(nested.split('.')[0]!)).toBe(true);
    const vars = new Set(documentedVariables());
    expect(Object.keys(ENV_SUPPORT).filter((v) => !vars.has(v))).toEqual([]);
    const table = supportTable();
    for (const k of keys) expect(table).toContain(`| \`${k}\` |`);
    for (const v of vars) expect(table).toContain(`| \`${v}\` |`);
    expect(vars.size).toBeGreaterThan(300);
    expect(DOCUMENTED_ENV_OUTSIDE_SCHEMA.every((v) => vars.has(v))).toBe(true);
  });

  it('the knobs the issue names are supported', () => {
    for (const k of [
      'attribution',
      'includeCoAuthoredBy',
      'respectGitignore',
      'plansDirectory',
      'availableModels',
      'verbose',
      'theme',
      'showTurnDuration',
      'spinnerTipsEnabled',
    ])
      expect(SETTINGS_SUPPORT[k]?.status, k).toBe('supported');
    for (const v of [
      'BASH_DEFAULT_TIMEOUT_MS',
      'BASH_MAX_TIMEOUT_MS',
      'BASH_MAX_OUTPUT_LENGTH',
      'CLAUDE_CODE_MAX_OUTPUT_TOKENS',
      'ANTHROPIC_DEFAULT_OPUS_MODEL',
      'ANTHROPIC_DEFAULT_SONNET_MODEL',
      'ANTHROPIC_DEFAULT_HAIKU_MODEL',
      'API_TIMEOUT_MS',
      'MAX_MCP_OUTPUT_TOKENS',
      'DISABLE_PROMPT_CACHING',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
    ])
      expect(ENV_SUPPORT[v]?.status, v).toBe('supported');
  });
});

describe('supportWarnings', () => {
  it('one warning per unsupported settings key, naming it; supported and Anthropic-only keys are quiet', () => {
    const w = supportWarnings({ spinnerVerbs: { verbs: ['x'] }, prUrlTemplate: 'x', model: 'opus', voiceEnabled: true, permissions: {} }, {});
    expect(w).toEqual([
      expect.stringContaining('settings key "spinnerVerbs" is not supported'),
      expect.stringContaining('settings key "prUrlTemplate" is not supported'),
    ]);
  });

  it('the security exceptions the reference lists are known keys: the one wicket cannot honour warns', async () => {
    const { knownSettingsKeys } = await import('../../../src/settings/schema.js');
    const keys = ['syncClaudeAiSkills', 'syncClaudeAiPlugins', 'crossSessionInbound', 'isolatePeerMachines'];
    for (const k of keys) expect(knownSettingsKeys().has(k), k).toBe(true);
    const w = supportWarnings({ syncClaudeAiSkills: false, syncClaudeAiPlugins: false, crossSessionInbound: 'accept', isolatePeerMachines: true }, {});
    expect(w).toEqual([expect.stringContaining('settings key "crossSessionInbound" is not supported')]);
  });

  it('a supported key warns for the values wicket does not honour only', () => {
    expect(supportWarnings({ theme: 'light-daltonized', spinnerTipsEnabled: false, showTurnDuration: false }, {})).toEqual([]);
    const w = supportWarnings({ theme: 'solarized', spinnerTipsEnabled: true }, {});
    expect(w).toEqual([expect.stringContaining('"theme" set to "solarized"'), expect.stringContaining('"spinnerTipsEnabled" set to true')]);
  });

  it('sub-keys wicket leaves unread warn', () => {
    expect(supportWarnings({ worktree: { baseRef: 'head', sparsePaths: ['a'] } }, {})).toEqual([expect.stringContaining('"worktree.sparsePaths"')]);
  });

  it('variables: Claude Code’s own warn from the shell or settings env, once; generic ones only from settings env', () => {
    const w = supportWarnings(
      { env: { CLAUDE_CODE_SHELL_PREFIX: 'x', CLAUDE_CODE_USE_MANTLE: '1' } },
      { CLAUDE_CODE_SHELL_PREFIX: 'x', CLAUDE_CODE_USE_MANTLE: '1', AWS_REGION: 'us-east-1', OTEL_METRICS_EXPORTER: 'otlp', BASH_MAX_OUTPUT_LENGTH: '10' },
    );
    expect(w).toHaveLength(2);
    expect(w[0]).toContain('CLAUDE_CODE_SHELL_PREFIX (settings env)');
    expect(w[1]).toContain('CLAUDE_CODE_USE_MANTLE (settings env)');
    expect(supportWarnings({}, { DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_OAUTH_TOKEN: 't' })).toEqual([]);
  });
});

describe('attribution', () => {
  it('attribution texts win over includeCoAuthoredBy; nothing set says nothing', () => {
    expect(attributionOf({})).toEqual({});
    expect(attributionOf({ includeCoAuthoredBy: false, attribution: { pr: 'PR by us' } })).toEqual({ commit: '', pr: 'PR by us' });
    expect(attributionPrompt({})).toBe('');
    expect(attributionPrompt({ attribution: { commit: 'Reviewed-by: Team <t@example.com>', pr: '' } })).toContain(
      'end its message with a blank line and then exactly:\nReviewed-by: Team <t@example.com>',
    );
    expect(attributionPrompt({ includeCoAuthoredBy: false })).toContain('no Co-Authored-By trailer');
  });
});
