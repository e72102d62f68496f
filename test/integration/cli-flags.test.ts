/** Claude Code flags for scripts: --replay-user-messages, --disable-slash-commands, -n/--name. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject();

describe('script flags', () => {
  it('--replay-user-messages echoes each stream-json user message before its answer', async () => {
    t.api.script(reply().text('one back'), reply().text('two back'));
    const input = ['one', 'two'].map((c) => JSON.stringify({ type: 'user', message: { role: 'user', content: c } })).join('\n');
    const r = await t.run(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'], {
      stdin: `${input}\n`,
    });
    expectExit(r, 0);
    const kinds = r
      .lines<any>()
      .filter((l) => l.type === 'user' || l.type === 'result')
      .map((l) => (l.type === 'user' ? `user:${l.message.content}` : `result:${l.result}`));
    expect(kinds).toEqual(['user:one', 'result:one back', 'user:two', 'result:two back']);
  });

  it('--disable-slash-commands sends /name as it is typed, and offers no Skill tool', async () => {
    mkdirSync(path.join(t.project.dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'commands', 'hello.md'), 'Expanded hello\n');
    mkdirSync(path.join(t.project.dir, '.claude', 'skills', 'pdf'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'skills', 'pdf', 'SKILL.md'), '---\ndescription: PDFs\n---\nbody\n');
    t.api.script(reply().text('a'), reply().text('b'));
    expectExit(await t.run(['-p', '/hello']), 0);
    expectExit(await t.run(['-p', '/hello', '--disable-slash-commands']), 0);
    const [on, off] = t.api.messageRequests().map((q) => q.body as { tools: Array<{ name: string }>; messages: unknown[] });
    expect(JSON.stringify(on!.messages[0])).toContain('Expanded hello');
    expect(on!.tools.map((x) => x.name)).toContain('Skill');
    expect(JSON.stringify(off!.messages[0])).toContain('"/hello"');
    expect(off!.tools.map((x) => x.name)).not.toContain('Skill');
  });

  it('stream-json flags given with text output are named on stderr as not supported, and the run goes on', async () => {
    t.api.script(reply().text('plain answer'));
    const r = await t.run(['-p', 'hi', '--include-partial-messages', '--include-hook-events']);
    expectExit(r, 0);
    expect(r.stdout).toBe('plain answer\n');
    expect(r.stderr).toContain('wicket: warning: --include-partial-messages is not supported without --output-format stream-json');
    expect(r.stderr).toContain('wicket: warning: --include-hook-events is not supported without --output-format stream-json');
  });

  it('--session-id takes only a UUID, as Claude Code does: anything else stops before a request', async () => {
    const r = await t.run(['-p', 'hi', '--session-id', 'not-a-uuid']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid session ID. Must be a valid UUID.');
    expect(t.api.messageRequests()).toHaveLength(0);
  });

  it('a Claude Code flag wicket does not have is named as not supported, and stops before a request', async () => {
    for (const flag of ['--brief', '--autocompact=auto', '--restricted']) {
      const r = await t.run(['-p', 'hi', flag]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`wicket: ${flag.split('=')[0]} is not supported: it is a Claude Code flag wicket does not have`);
    }
    const other = await t.run(['-p', 'hi', '--no-such-flag']);
    expect(other.stderr).toContain("wicket: unknown option '--no-such-flag'");
    expect(t.api.messageRequests()).toHaveLength(0);
  });

  it('-n names the session in its file', async () => {
    t.api.script(reply().text('ok'));
    expectExit(await t.run(['-p', 'hi', '-n', 'release prep']), 0);
    const dir = path.join(t.project.home, '.claude', 'projects');
    const slug = readdirSync(dir)[0]!;
    const text = readFileSync(path.join(dir, slug, readdirSync(path.join(dir, slug))[0]!), 'utf8');
    expect(text).toContain('"type":"custom-title","customTitle":"release prep"');
  });
});

describe('--json-schema', () => {
  const schema = JSON.stringify({
    type: 'object',
    properties: { answer: { type: 'number' }, why: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  });

  it('the answer comes back as structured_output, checked against the schema (a bad one is sent back to fix)', async () => {
    t.api.script(
      reply().toolUse('StructuredOutput', { answer: 'forty-two', extra: 1 }, { id: 'toolu_bad' }),
      reply().toolUse('StructuredOutput', { answer: 42, why: 'it is' }, { id: 'toolu_ok' }),
      reply().text('Returned.'),
    );
    const r = await t.run(['-p', 'what is the answer?', '--json-schema', schema, '--output-format', 'json']);
    expectExit(r, 0);
    const result = r.json<any>();
    expect(result).toMatchObject({ subtype: 'success', structured_output: { answer: 42, why: 'it is' } });
    const first = t.api.messageRequests()[0]!.body as { tools: Array<{ name: string; input_schema: unknown }>; system: Array<{ text: string }> };
    expect(first.tools.find((x) => x.name === 'StructuredOutput')!.input_schema).toEqual(JSON.parse(schema));
    expect(first.system[0]!.text).toContain('call the StructuredOutput tool exactly once');
    const fixed = JSON.stringify(t.api.messageRequests()[1]!.body);
    expect(fixed).toContain('answer: expected number, got string');
    expect(fixed).toContain('unexpected field extra');
  });

  it('asks twice when the model answers in text only, then fails with error_max_structured_output_retries', async () => {
    t.api.script(reply().text('42'), reply().text('still 42'), reply().text('really 42'));
    const r = await t.run(['-p', 'what is the answer?', '--json-schema', schema, '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(r.json<any>()).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true });
    expect(JSON.stringify(t.api.messageRequests()[2]!.body)).toContain('You have not called the StructuredOutput tool');
    const bad = await t.run(['-p', 'x', '--json-schema', '{nope']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--json-schema is not valid JSON');
  });
});

describe('an approval that changes the input', () => {
  it('a PermissionRequest hook may allow with updatedInput: the changed call runs', async () => {
    const target = path.join(t.project.dir, 'note.txt');
    const answer = {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', updatedInput: { file_path: target, content: 'from the hook\n' } },
      },
    };
    writeFileSync(path.join(t.project.dir, 'answer.json'), JSON.stringify(answer));
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(
      path.join(t.project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PermissionRequest: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'cat answer.json' }] }] } }),
    );
    t.api.script(reply().toolUse('Write', { file_path: target, content: 'from the model\n' }), reply().text('ok'));
    expectExit(await t.run(['-p', 'write a note']), 0);
    expect(readFileSync(target, 'utf8')).toBe('from the hook\n');
  });

  it('--setting-sources loads only the settings files it names; managed settings and flags still apply', async () => {
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read'] } }));
    mkdirSync(path.join(t.project.home, '.claude'), { recursive: true });
    writeFileSync(path.join(t.project.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Glob'] } }));
    t.api.script(reply().text('a'), reply().text('b'), reply().text('c'));
    const toolsOf = (i: number) => (t.api.messageRequests()[i]!.body as { tools: Array<{ name: string }> }).tools.map((x) => x.name);
    expectExit(await t.run(['-p', 'hi']), 0);
    expectExit(await t.run(['-p', 'hi', '--setting-sources', 'user,local']), 0);
    expectExit(await t.run(['-p', 'hi', '--setting-sources', 'project', '--disallowedTools', 'Grep']), 0);
    expect(toolsOf(0)).not.toContain('Read');
    expect(toolsOf(0)).not.toContain('Glob');
    expect(toolsOf(1)).toContain('Read');
    expect(toolsOf(1)).not.toContain('Glob');
    expect(toolsOf(2)).not.toContain('Read');
    expect(toolsOf(2)).toContain('Glob');
    expect(toolsOf(2)).not.toContain('Grep');
    const bad = await t.run(['-p', 'hi', '--setting-sources', 'user,team']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--setting-sources takes user, project and local (comma separated); got team');
  });

  it('--debug prints what the session did on stderr, by category; --debug-file writes it to a file', async () => {
    writeFileSync(path.join(t.project.dir, 'a.txt'), 'alpha\n');
    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(
      path.join(t.project.dir, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
    );
    const script = () => t.api.script(reply().toolUse('Read', { file_path: path.join(t.project.dir, 'a.txt') }, { id: 'toolu_r' }), reply().text('read'));
    script();
    const all = await t.run(['-p', 'read a.txt', '--allowedTools', 'Read', '--debug']);
    expectExit(all, 0);
    expect(all.stdout.trim()).toBe('read');
    expect(all.stderr).toMatch(/\[DEBUG\] \[api\] request 1/);
    expect(all.stderr).toMatch(/\[DEBUG\] \[tools\] toolu_r permission: allowed \(allow rule Read/);
    expect(all.stderr).toMatch(/\[DEBUG\] \[hooks\] PreToolUse:Read success \(exit 0\)/);
    script();
    const some = await t.run(['-p', 'read a.txt', '--allowedTools', 'Read', '--debug', 'api,!tools']);
    expect(some.stderr).toContain('[api]');
    expect(some.stderr).not.toContain('[tools]');
    expect(some.stderr).not.toContain('[hooks]');
    script();
    const file = path.join(t.project.dir, 'debug.log');
    const quiet = await t.run(['-p', 'read a.txt', '--allowedTools', 'Read', '--debug-file', file]);
    expect(quiet.stderr).not.toContain('[DEBUG]');
    expect(readFileSync(file, 'utf8')).toContain('[DEBUG] [tools] toolu_r Read done in');
  });
});
