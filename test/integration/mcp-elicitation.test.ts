/**
 * MCP elicitation in print mode, through the built binary: a server's tool asks for input during the
 * call; Elicitation hooks may answer (exit 2 declines), else nobody can and the request is
 * cancelled; ElicitationResult hooks may change the answer; Notification hooks hear of it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolResultIn, useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit, REPO_ROOT } from '../support/run-cli.js';
import { SIGNUP_SCHEMA } from '../support/mcp-server.mjs';

const SERVER = path.join(REPO_ROOT, 'test', 'support', 'mcp-server.mjs');
const t = useApiAndProject();

/** A hook that logs what it was told (hooks.jsonl) and prints `out` (a JSON text), exiting with `code`. */
const HOOK = `
import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  appendFileSync('hooks.jsonl', input.trim() + '\\n');
  const [out, code] = process.argv.slice(2);
  if (code === '2') process.stderr.write('not for robots');
  if (out) process.stdout.write(out);
  process.exit(Number(code ?? 0));
});
`;

function project(hooks: Record<string, unknown>): void {
  writeFileSync(
    path.join(t.project.dir, '.mcp.json'),
    JSON.stringify({ mcpServers: { forms: { command: process.execPath, args: [SERVER, '--elicit', '--no-resources'] } } }),
  );
  writeFileSync(path.join(t.project.dir, 'hook.mjs'), HOOK);
  mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
  writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__forms'] }, hooks }));
}

/** A hook group running hook.mjs, printing `out` (an object, as JSON), exiting with `code`. */
const hook = (matcher: string, out?: unknown, code = 0) => [
  { matcher, hooks: [{ type: 'command', command: `node hook.mjs '${out === undefined ? '' : JSON.stringify(out)}' ${code}` }] },
];

const logged = (): Array<Record<string, any>> => {
  const file = path.join(t.project.dir, 'hooks.jsonl');
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];
};

async function callTool(tool: string): Promise<{ result: string; stderr: string }> {
  t.api.script(reply().toolUse(`mcp__forms__${tool}`, {}, { id: 'toolu_1' }), reply().text('done'));
  const r = await t.run(['-p', `use ${tool}`], { timeoutMs: 30_000 });
  expectExit(r, 0);
  const res = toolResultIn(t.api.messageRequests().at(-1)!.body, 'toolu_1');
  const text = typeof res.content === 'string' ? res.content : res.content.map((b: { text?: string }) => b.text ?? '').join('\n');
  return { result: text, stderr: r.stderr };
}

describe('MCP elicitation in print mode', () => {
  it('an Elicitation hook answers for the person: the server gets its content', async () => {
    project({ Elicitation: hook('forms', { hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { name: 'Ada', age: 36 } } }) });
    const { result } = await callTool('signup');
    expect(result).toBe('signup: action=accept content={"name":"Ada","age":36}');
    const [input] = logged();
    expect(input).toMatchObject({
      hook_event_name: 'Elicitation',
      mcp_server_name: 'forms',
      message: 'Please tell us about yourself',
      mode: 'form',
      requested_schema: SIGNUP_SCHEMA,
    });
    expect(input!.session_id).toBeTruthy();
  });

  it("a sub-agent's own MCP server (from its agent file) asks the same way: the session's Elicitation hook answers it", async () => {
    const answer = {
      Elicitation: hook('mine', { hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { name: 'Grace', age: 85 } } }),
    };
    project(answer);
    const agents = path.join(t.project.dir, '.claude', 'agents');
    mkdirSync(agents, { recursive: true });
    const server = `mcpServers:\n  - mine:\n      type: stdio\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(SERVER)}, "--elicit", "--no-resources"]`;
    writeFileSync(path.join(agents, 'signer.md'), `---\nname: signer\ndescription: Signs up\n${server}\n---\nSign up.\n`);
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['mcp__mine'] }, hooks: answer }));
    t.api.script(
      reply().toolUse('Agent', { description: 'sign up', prompt: 'SUBTASK: sign up', subagent_type: 'signer' }, { id: 'toolu_agent' }),
      reply().toolUse('mcp__mine__signup', {}, { id: 'toolu_sub' }),
      reply().text('signed up'),
      reply().text('done'),
    );
    const r = await t.run(['-p', 'sign up through the agent'], { timeoutMs: 30_000 });
    expectExit(r, 0);
    const sub = t.api.messageRequests().find((q) => toolResultIn(q.body, 'toolu_sub'));
    expect(toolResultIn(sub!.body, 'toolu_sub').content).toBe('signup: action=accept content={"name":"Grace","age":85}');
    expect(logged()[0]).toMatchObject({ hook_event_name: 'Elicitation', mcp_server_name: 'mine' });
  });

  it('with no hook answering, nobody can: the request is cancelled and stderr says why', async () => {
    project({ Elicitation: hook('other-server', { hookSpecificOutput: { action: 'accept', content: { name: 'Nobody' } } }) });
    const { result, stderr } = await callTool('signup');
    expect(result).toBe('signup: action=cancel');
    expect(logged()).toEqual([]);
    expect(stderr).toContain('MCP server "forms" asked for input ("Please tell us about yourself"); nobody can answer in print mode');
  });

  it('exit 2 from an Elicitation hook declines, and its message is shown', async () => {
    project({
      Elicitation: hook('forms', undefined, 2),
      ElicitationResult: hook('forms', { hookSpecificOutput: { action: 'accept', content: { name: 'Late' } } }),
    });
    const { result, stderr } = await callTool('signup');
    expect(result).toBe('signup: action=decline');
    expect(stderr).toContain('not for robots');
    // A hook's answer goes straight back: ElicitationResult hooks do not see it.
    expect(logged().map((l) => l.hook_event_name)).toEqual(['Elicitation']);
  });

  it('an ElicitationResult hook changes the answer before it goes back; Notification hooks hear it', async () => {
    project({
      ElicitationResult: hook('forms', {
        hookSpecificOutput: { hookEventName: 'ElicitationResult', action: 'accept', content: { name: 'Grace', subscribe: true } },
      }),
      Notification: hook('elicitation_response'),
    });
    const { result } = await callTool('signup');
    expect(result).toBe('signup: action=accept content={"name":"Grace","subscribe":true}');
    const byEvent = Object.fromEntries(logged().map((l) => [l.hook_event_name, l]));
    expect(byEvent.ElicitationResult).toMatchObject({ mcp_server_name: 'forms', action: 'cancel', mode: 'form' });
    expect(byEvent.Notification).toMatchObject({ notification_type: 'elicitation_response', message: 'Elicitation response for server "forms": accept' });
  });

  it('exit 2 from an ElicitationResult hook declines', async () => {
    project({
      Elicitation: hook('forms', { hookSpecificOutput: { action: 'accept', content: { name: 'Ada' } } }),
      ElicitationResult: hook('forms', undefined, 2),
    });
    // The Elicitation hook answered, so the result hook does not run: the answer stands.
    expect((await callTool('signup')).result).toBe('signup: action=accept content={"name":"Ada"}');
    project({ ElicitationResult: hook('forms', undefined, 2) });
    expect((await callTool('signup')).result).toBe('signup: action=decline');
  });

  it('URL mode: the hook sees the URL and its id; the server’s completion reaches Notification hooks', async () => {
    project({ Elicitation: hook('forms', { hookSpecificOutput: { action: 'accept' } }), Notification: hook('elicitation_complete') });
    const { result } = await callTool('connect');
    expect(result).toBe('connect: action=accept');
    const byEvent = Object.fromEntries(logged().map((l) => [l.hook_event_name, l]));
    expect(byEvent.Elicitation).toMatchObject({
      mode: 'url',
      url: 'https://example.com/connect?id=1',
      elicitation_id: 'connect-1',
      message: 'Connect your account',
    });
    expect(byEvent.Notification).toMatchObject({
      notification_type: 'elicitation_complete',
      message: 'MCP server "forms" confirmed elicitation connect-1 complete',
    });
  });
});
