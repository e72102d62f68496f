/** Model settings through the built binary: the effort level (--effort, CLAUDE_CODE_EFFORT_LEVEL, settings effortLevel, agent files, hooks) and --fallback-model. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelTakesEffort, parseEffort, pickEffort } from '../../src/base/models.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
const run = (args: string[], env: Record<string, string> = {}) => t.run(args, { env });
type Body = { output_config?: { effort?: string }; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);

function writeSettings(settings: Record<string, unknown>): void {
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify(settings));
}

describe('effort level', () => {
  it('--effort sends output_config.effort; without a level none is sent', async () => {
    t.api.script(reply().text('a'), reply().text('b'));
    expectExit(await run(['-p', 'hi', '--effort', 'high']), 0);
    expectExit(await run(['-p', 'hi']), 0);
    const [high, none] = bodies();
    expect(high!.output_config).toEqual({ effort: 'high' });
    expect(none!.output_config).toBeUndefined();
  });

  it('the flag beats CLAUDE_CODE_EFFORT_LEVEL, which beats settings effortLevel; auto leaves it to the model', async () => {
    writeSettings({ effortLevel: 'low' });
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'), reply().text('d'));
    expectExit(await run(['-p', 'hi']), 0);
    expectExit(await run(['-p', 'hi'], { CLAUDE_CODE_EFFORT_LEVEL: 'medium' }), 0);
    expectExit(await run(['-p', 'hi', '--effort', 'max'], { CLAUDE_CODE_EFFORT_LEVEL: 'medium' }), 0);
    expectExit(await run(['-p', 'hi', '--effort', 'auto']), 0);
    expect(bodies().map((b) => b.output_config?.effort)).toEqual(['low', 'medium', 'max', undefined]);
  });

  it('a model from before the effort parameter gets no output_config', async () => {
    t.api.script(reply().text('a'));
    expectExit(await run(['-p', 'hi', '--effort', 'high', '--model', 'claude-sonnet-4-5']), 0);
    expect(bodies()[0]!.output_config).toBeUndefined();
  });

  it('an unknown level is a usage error naming the levels', async () => {
    const r = await run(['-p', 'hi', '--effort', 'huge']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--effort must be one of low, medium, high, xhigh, max or auto; got huge');
    expect(t.api.messageRequests()).toHaveLength(0);
  });

  it('an agent file’s effort applies to its sub-agent; the session keeps its own', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'agents'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'agents', 'quick.md'), '---\nname: quick\ndescription: fast answers\neffort: low\n---\nAnswer fast.\n');
    t.api.script(
      reply().toolUse('Agent', { description: 'quick look', prompt: 'say hi', subagent_type: 'quick' }),
      reply().text('hi from the agent'),
      reply().text('done'),
    );
    expectExit(await run(['-p', 'go', '--effort', 'high', '--allowedTools', 'Agent']), 0);
    expect(bodies().map((b) => b.output_config?.effort)).toEqual(['high', 'low', 'high']);
  });

  it('hooks see effort.level and CLAUDE_EFFORT', async () => {
    const out = path.join(t.project.dir, 'hook.out');
    const script = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').writeFileSync(${JSON.stringify(out)},JSON.stringify({input:JSON.parse(s),env:process.env.CLAUDE_EFFORT})));`;
    writeFileSync(path.join(t.project.dir, 'hook.cjs'), script);
    writeSettings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node hook.cjs' }] }] } });
    t.api.script(reply().text('a'));
    expectExit(await run(['-p', 'hi', '--effort', 'xhigh']), 0);
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    expect(seen.input.effort).toEqual({ level: 'xhigh' });
    expect(seen.env).toBe('xhigh');
  });

  it('parses levels and knows which models take one', () => {
    expect(parseEffort(' High ')).toBe('high');
    expect(parseEffort('auto')).toBe('auto');
    expect(parseEffort('huge')).toBeUndefined();
    expect(pickEffort(undefined, 'bogus', 'medium', 'low')).toBe('medium');
    expect(pickEffort('auto', 'low')).toBeUndefined();
    expect(modelTakesEffort('claude-opus-4-7')).toBe(true);
    expect(modelTakesEffort('claude-opus-4-5-20251101')).toBe(true);
    expect(modelTakesEffort('claude-sonnet-4-6')).toBe(true);
    expect(modelTakesEffort('claude-sonnet-4-5-20250929')).toBe(false);
    expect(modelTakesEffort('claude-haiku-4-5')).toBe(false);
    expect(modelTakesEffort('claude-opus-4-1-20250805')).toBe(false);
    expect(modelTakesEffort('claude-sonnet-4-20250514')).toBe(false);
    expect(modelTakesEffort('claude-3-7-sonnet-latest')).toBe(false);
    expect(modelTakesEffort('my-gateway-model')).toBe(true);
  });
});

describe('--fallback-model', () => {
  it('after three overloaded answers the request, and the rest of the session, go to the fallback', async () => {
    t.api.script(
      reply().error(529),
      reply().error(529),
      reply().error(529),
      reply().toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') }),
      reply().text('done'),
    );
    const r = await t.run(['-p', 'hi', '--fallback-model', 'haiku', '--allowedTools', 'Read', '--output-format', 'json'], {
      env: { WICKET_RETRY_BASE_DELAY_MS: '1' },
    });
    expectExit(r, 0);
    expect(t.api.messageRequests().map((q) => (q.body as { model: string }).model)).toEqual([
      'claude-sonnet-4-6',
      'claude-sonnet-4-6',
      'claude-sonnet-4-6',
      'claude-haiku-4-5',
      'claude-haiku-4-5',
    ]);
    expect(r.stderr).toContain('claude-sonnet-4-6 is overloaded');
    expect(r.stderr).toContain('switched to the fallback model claude-haiku-4-5');
    expect(Object.keys(JSON.parse(r.stdout).modelUsage)).toEqual(['claude-haiku-4-5']);
  });

  it('settings fallbackModel works the same; without one, overload is only retried', async () => {
    writeSettings({ fallbackModel: 'claude-opus-4-7' });
    t.api.script(reply().error(529), reply().error(529), reply().error(529), reply().text('ok'));
    expectExit(await t.run(['-p', 'hi'], { env: { WICKET_RETRY_BASE_DELAY_MS: '1' } }), 0);
    expect((t.api.messageRequests()[3]!.body as { model: string }).model).toBe('claude-opus-4-7');
  });
});
