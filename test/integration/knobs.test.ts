/**
 * Claude Code's knobs through the built binary, asserted on what reaches the (fake) API:
 * CLAUDE_CODE_MAX_OUTPUT_TOKENS, ANTHROPIC_DEFAULT_*_MODEL, DISABLE_PROMPT_CACHING*, availableModels,
 * attribution, settings verbose, and the one warning an unsupported key or variable prints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
const run = (args: string[], env: Record<string, string> = {}) => t.run(args, { env });
type Body = { model: string; max_tokens: number; system: Array<{ text: string }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);

function writeSettings(settings: Record<string, unknown>): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify(settings));
}

describe('model knobs', () => {
  it('CLAUDE_CODE_MAX_OUTPUT_TOKENS reaches max_tokens (default 32,000; capped at 128,000)', async () => {
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', 'hi'], { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '4096' }), 0);
    expectExit(await run(['-p', 'hi']), 0);
    expectExit(await run(['-p', 'hi'], { CLAUDE_CODE_MAX_OUTPUT_TOKENS: '1e6' }), 0);
    expect(bodies().map((b) => b.max_tokens)).toEqual([4096, 32_000, 128_000]);
  });

  it('ANTHROPIC_DEFAULT_OPUS_MODEL / _SONNET_ / _HAIKU_ are what the aliases mean, from the shell or settings env', async () => {
    writeSettings({ env: { ANTHROPIC_DEFAULT_HAIKU_MODEL: 'gateway-haiku' } });
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', 'hi', '--model', 'opus'], { ANTHROPIC_DEFAULT_OPUS_MODEL: 'my-opus-v9' }), 0);
    expectExit(await run(['-p', 'hi', '--model', 'haiku']), 0);
    expectExit(await run(['-p', 'hi'], { ANTHROPIC_MODEL: 'sonnet', ANTHROPIC_DEFAULT_SONNET_MODEL: 'my-sonnet' }), 0);
    expect(bodies().map((b) => b.model)).toEqual(['my-opus-v9', 'gateway-haiku', 'my-sonnet']);
  });

  it('DISABLE_PROMPT_CACHING: no request carries a cache mark; a family switch only for that family', async () => {
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    expectExit(await run(['-p', 'hi'], { DISABLE_PROMPT_CACHING: '1' }), 0);
    expectExit(await run(['-p', 'hi', '--model', 'haiku'], { DISABLE_PROMPT_CACHING_HAIKU: 'true' }), 0);
    expectExit(await run(['-p', 'hi', '--model', 'sonnet'], { DISABLE_PROMPT_CACHING_HAIKU: 'true' }), 0);
    const [all, haiku, sonnet] = bodies().map((b) => JSON.stringify(b));
    expect(all).not.toContain('cache_control');
    expect(haiku).not.toContain('cache_control');
    expect(sonnet).toContain('cache_control');
  });

  it('availableModels: a session on another model does not start and sends nothing; an allowed one runs', async () => {
    writeSettings({ availableModels: ['haiku', 'claude-sonnet-4-6'] });
    const refused = await run(['-p', 'hi', '--model', 'opus']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('claude-opus-4-7 is not in settings availableModels (haiku, claude-sonnet-4-6)');
    expect(t.api.messageRequests()).toHaveLength(0);
    t.api.script(reply().text('a'));
    expectExit(await run(['-p', 'hi', '--model', 'haiku']), 0);
    expect(bodies().map((b) => b.model)).toEqual(['claude-haiku-4-5']);
  });

  it('deniedModels (managed policy only): a session on a blocked model does not start; a user file cannot set it', async () => {
    const managed = path.join(t.project.home, 'managed-settings.json');
    writeFileSync(managed, JSON.stringify({ deniedModels: ['opus'] }));
    const refused = await run(['-p', 'hi', '--model', 'opus'], { WICKET_MANAGED_SETTINGS: managed });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("claude-opus-4-7 is blocked by the managed policy's deniedModels");
    expect(t.api.messageRequests()).toHaveLength(0);
    writeSettings({ deniedModels: ['opus'] });
    t.api.script(reply().text('a'));
    const r = await run(['-p', 'hi', '--model', 'opus']);
    expectExit(r, 0);
    expect(r.stderr).toContain('"deniedModels" is read from the managed policy only; ignored here');
  });
});

describe('settings that shape the session', () => {
  it('attribution: the commit and pull request texts reach the system prompt', async () => {
    writeSettings({ attribution: { commit: 'Reviewed-by: Release Team <release@example.com>', pr: '' } });
    t.api.script(reply().text('a'));
    expectExit(await run(['-p', 'hi']), 0);
    const system = bodies()[0]!
      .system.map((b) => b.text)
      .join('\n');
    expect(system).toContain('Reviewed-by: Release Team <release@example.com>');
    expect(system).toContain('Add no attribution to pull requests');
  });

  it('includeGateTraces: true in settings puts gate traces in stream-json without --include-gate-traces', async () => {
    writeSettings({ verbose: true, includeGateTraces: true, permissions: { allow: ['Read'] } });
    t.api.script(reply().toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') }), reply().text('done'));
    const r = expectExit(await run(['-p', 'read it', '--output-format', 'stream-json']), 0);
    expect(r.lines<{ subtype?: string }>().some((l) => l.subtype === 'gate_trace')).toBe(true);
  });

  it('an unsupported key and variable are each named in one warning; the run goes on', async () => {
    writeSettings({ spinnerVerbs: { verbs: ['Pondering'] }, env: { CLAUDE_CODE_SHELL_PREFIX: '/usr/bin/time' } });
    t.api.script(reply().text('a'));
    const r = expectExit(await run(['-p', 'hi'], { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' }), 0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('wicket: warning:'));
    expect(warnings).toEqual([
      expect.stringContaining('settings key "spinnerVerbs" is not supported by wicket'),
      expect.stringContaining('environment variable CLAUDE_CODE_SHELL_PREFIX (settings env) is not supported by wicket'),
    ]);
  });
});
