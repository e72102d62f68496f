/** UserPromptExpansion, DirectoryAdded and SessionStart's initialUserMessage, through a real hook gate. */
import { describe, expect, it } from 'vitest';
import { gateExpansion, expansionOf } from '../../../src/commands/expansion-gate.js';
import { buildHooks, one, signal } from './helpers.js';

const deploy = expansionOf('deploy', 'prod', 'project', '/deploy prod ');

describe('UserPromptExpansion', () => {
  it('matches on the command name; exit 2 and decision block block, continue:false stops, plain stdout and additionalContext are context', async () => {
    expect(await buildHooks(one('UserPromptExpansion', 'echo frozen >&2; exit 2', {}, 'deploy')).hooks.userPromptExpansion(deploy, signal)).toEqual({
      block: 'frozen',
    });
    expect(await buildHooks(one('UserPromptExpansion', 'echo frozen >&2; exit 2', {}, 'review')).hooks.userPromptExpansion(deploy, signal)).toEqual({});
    expect(await buildHooks(one('UserPromptExpansion', `echo '{"decision":"block","reason":"no"}'`)).hooks.userPromptExpansion(deploy, signal)).toEqual({
      block: 'no',
    });
    expect(await buildHooks(one('UserPromptExpansion', `echo '{"continue":false,"stopReason":"quota"}'`)).hooks.userPromptExpansion(deploy, signal)).toEqual({
      stop: 'quota',
    });
    const both = {
      UserPromptExpansion: [
        {
          hooks: [
            { type: 'command', command: 'echo plain' },
            {
              type: 'command',
              command: `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"json","sessionTitle":"ignored"}}'`,
            },
          ],
        },
      ],
    };
    expect(await buildHooks(both).hooks.userPromptExpansion(deploy, signal)).toEqual({ additionalContext: 'plain\n\njson' });
  });

  it('the gate names the command in a block, hands back context and the hooks’ notices', async () => {
    const blocked = buildHooks(one('UserPromptExpansion', 'echo frozen >&2; exit 2')).hooks;
    expect(await gateExpansion(blocked, deploy, signal)).toEqual({
      ok: false,
      message: '/deploy was blocked by a UserPromptExpansion hook: frozen',
      notices: [],
    });
    const noisy = buildHooks(
      one('UserPromptExpansion', `echo '{"systemMessage":"heads up","hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"ctx"}}'`),
    ).hooks;
    expect(await gateExpansion(noisy, deploy, signal)).toEqual({ ok: true, context: 'ctx', notices: [expect.stringContaining('heads up')] });
    expect(
      await gateExpansion(
        { preToolUse: async () => ({ kind: 'continue' }), postToolUse: async () => ({}), postToolUseFailure: async () => ({}) },
        deploy,
        signal,
      ),
    ).toEqual({ ok: true, notices: [] });
  });

  it('input fields as Claude Code names them', () => {
    expect(deploy).toEqual({
      expansionType: 'slash_command',
      commandName: 'deploy',
      commandArgs: 'prod',
      commandSource: 'projectSettings',
      prompt: '/deploy prod',
    });
    expect(expansionOf('x', '', 'user', '/x').commandSource).toBe('userSettings');
    expect(expansionOf('mcp__s__p', 'a', 'mcp', '/mcp__s__p a')).toMatchObject({ expansionType: 'mcp_prompt', commandSource: 'mcp' });
    expect(expansionOf('init', '', 'builtin', '/init').commandSource).toBe('builtin');
  });
});

describe('DirectoryAdded', () => {
  it('matches on the source; output and errors are kept from the person; failures are counted; a systemMessage waits for the next prompt', async () => {
    const value = {
      DirectoryAdded: [
        {
          matcher: 'slash_command',
          hooks: [
            { type: 'command', command: `echo '{"systemMessage":"uses pnpm"}'` },
            { type: 'command', command: 'echo broken >&2; exit 1' },
            { type: 'command', command: 'exit 2' },
          ],
        },
        { matcher: 'register_repo_root', hooks: [{ type: 'command', command: 'exit 1' }] },
      ],
    };
    const { hooks } = buildHooks(value);
    expect(await hooks.directoryAdded({ directory: '/tmp/other', source: 'slash_command' })).toBe(2);
    expect(hooks.drainNotices()).toEqual([]);
    expect(hooks.takeContext()).toBe('uses pnpm');
    expect(hooks.takeContext()).toBeUndefined();
  });

  it('gets the folder and how it was added', async () => {
    const rec = buildHooks(
      one(
        'DirectoryAdded',
        `python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps({"systemMessage": d["hook_event_name"]+" "+d["directory"]+" "+d["source"]}))'`,
      ),
    ).hooks;
    await rec.directoryAdded({ directory: '/srv/lib', source: 'slash_command' });
    expect(rec.takeContext()).toBe('DirectoryAdded /srv/lib slash_command');
  });
});

describe("SessionStart's initialUserMessage", () => {
  it('the first hook’s (in settings order) is returned, next to the context', async () => {
    const msg = (m: string) => `echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","initialUserMessage":"${m}","additionalContext":"ctx ${m}"}}'`;
    const value = {
      SessionStart: [
        {
          hooks: [
            { type: 'command', command: msg('first') },
            { type: 'command', command: msg('second') },
          ],
        },
      ],
    };
    expect(await buildHooks(value).hooks.sessionStart({ source: 'startup' }, signal)).toEqual({
      additionalContext: 'ctx first\n\nctx second',
      initialUserMessage: 'first',
    });
    expect(await buildHooks(one('SessionStart', 'echo just context')).hooks.sessionStart({ source: 'startup' }, signal)).toEqual({
      additionalContext: 'just context',
    });
  });
});
