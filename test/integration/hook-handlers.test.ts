/** Hooks of type "http" and "prompt" through the built binary, against the fake Messages API. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.txt': 'alpha\n' } });
type Body = { model: string; system?: Array<{ text: string }>; messages: Array<{ role: string; content: any }> };
const bodies = () => t.api.messageRequests().map((r) => r.body as Body);
const settings = (hooks: object) => t.project.write('.claude/settings.json', JSON.stringify({ hooks }));

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('prompt hooks', () => {
  it('a Stop prompt hook asks the small model; "ok": false sends the agent back with the reason, "ok": true lets it stop', async () => {
    await settings({ Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the agent run the tests? $ARGUMENTS' }] }] });
    t.api.script(
      reply().text('All done.'),
      reply().text('{"ok": false, "reason": "You did not run the tests. Run npm test."}'),
      reply().text('Ran npm test: green. Done.'),
      reply().text('{"ok": true}'),
    );
    const r = await t.run(['-p', 'finish the work', '--output-format', 'json', '--model', 'opus']);
    expectExit(r, 0);
    expect(r.json<any>().result).toBe('Ran npm test: green. Done.');
    expect(Object.keys(r.json<any>().modelUsage).sort()).toEqual(['claude-haiku-4-5', 'claude-opus-4-7'].sort()); // the judge's cost is the session's
    const [, judge, resumed, judge2] = bodies();
    expect(judge!.model).toMatch(/haiku/);
    expect(judge!.system![0]!.text).toContain('{"ok": true}');
    const asked = judge!.messages[0]!.content as string;
    expect(asked.startsWith('Did the agent run the tests? {')).toBe(true);
    expect(JSON.parse(asked.slice('Did the agent run the tests? '.length))).toMatchObject({
      hook_event_name: 'Stop',
      last_assistant_message: 'All done.',
      stop_hook_active: false,
    });
    expect(JSON.stringify(resumed!.messages.at(-1))).toContain('You did not run the tests. Run npm test.');
    expect(judge2!.messages[0]!.content).toContain('"stop_hook_active":true');
  });

  it('a PreToolUse prompt hook that says no ends the turn; the call never runs', async () => {
    await settings({ PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'prompt', prompt: 'Is this write safe?', model: 'sonnet' }] }] });
    t.api.script(
      reply().toolUse('Write', { file_path: t.project.path('b.txt'), content: 'x' }),
      reply().text('{"ok": false, "reason": "Writes need a review today."}'),
      reply().text('unused'),
    );
    const r = await t.run(['-p', 'write b', '--permission-mode', 'acceptEdits']);
    expect(t.project.exists('b.txt')).toBe(false);
    expect(bodies()[1]!.model).toMatch(/sonnet/);
    expect(r.stderr).toBe('wicket: stopped by a hook: Writes need a review today.\n');
  });
});

describe('http hooks', () => {
  it('a PreToolUse http hook gets the call as JSON and denies it; the model reads why', async () => {
    const posted: any[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        posted.push({ body: JSON.parse(body), auth: req.headers.authorization });
        const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'a.txt is frozen' } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(deny));
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pre`;
    await settings({
      PreToolUse: [{ matcher: 'Read', hooks: [{ type: 'http', url, headers: { Authorization: 'Bearer $HOOK_TOKEN' }, allowedEnvVars: ['HOOK_TOKEN'] }] }],
    });
    t.api.script(reply().toolUse('Read', { file_path: t.project.path('a.txt') }, { id: 'toolu_r' }), reply().text('It is frozen.'));
    const r = await t.run(['-p', 'read a'], { env: { HOOK_TOKEN: 't0k' } });
    expectExit(r, 0);
    expect(posted).toEqual([
      { body: expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_use_id: 'toolu_r' }), auth: 'Bearer t0k' },
    ]);
    const result = toolResultIn(t.api.messageRequests()[1]!.body, 'toolu_r');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain('a.txt is frozen');
  });
});
