import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskNotices } from '../../src/core/task-notices.js';
import { bashTool } from '../../src/tools/bash/index.js';
import type { Tool } from '../../src/base/tool.js';
import { App } from '../../src/ui/App.js';
import { allCommands } from '../../src/ui/commands/index.js';
import { makeTheme } from '../../src/ui/theme.js';
import { baseOptions, emptyLoaded, keys, scriptedClient, tick, waitFor, type Turn } from './helpers.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wicket-app-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function start(turns: Turn[], { tools, notices, ...extra }: { initialPrompt?: string; history?: string[]; tools?: Tool[]; notices?: TaskNotices } = {}) {
  const client = scriptedClient(turns);
  const base = { ...baseOptions(client, dir, tools), ...(notices ? { taskNotices: notices } : {}) };
  const r = render(
    <App
      base={base}
      loaded={emptyLoaded(dir)}
      cwd={dir}
      configDir={path.join(dir, 'config')}
      version="9.9.9"
      commands={allCommands(dir, path.join(dir, 'config'))}
      allowBypass={false}
      theme={makeTheme({ NO_COLOR: '1' })}
      frameMs={5}
      {...extra}
    />,
  );
  const send = async (text: string) => {
    r.stdin.write(text);
    await tick(30);
    r.stdin.write(keys.enter);
    await tick(30);
  };
  return { ...r, client, base, send, frame: () => r.lastFrame() ?? '' };
}

function lastUserContent(client: ReturnType<typeof scriptedClient>): unknown {
  return client.requests.at(-1)?.messages.at(-1)?.content;
}

describe('App', () => {
  it('Ctrl+R searches earlier prompts; Enter puts the match in the prompt, Esc leaves it as it was', async () => {
    const app = start([[{ text: 'ran it' }]], { history: ['run the unit tests', 'fix the parser', 'run the linter'] });
    await tick(30);
    app.stdin.write('draft');
    await tick(30);
    app.stdin.write('\x12'); // Ctrl+R
    await waitFor(() => expect(app.frame()).toContain('search history:'));
    app.stdin.write('run');
    await waitFor(() => expect(app.frame()).toContain('run the linter'));
    app.stdin.write('\x12');
    await waitFor(() => expect(app.frame()).toContain('run the unit tests'));
    app.stdin.write('\x12'); // no older match: stays
    await tick(30);
    expect(app.frame()).toContain('run the unit tests');
    app.stdin.write(keys.enter);
    await waitFor(() => expect(app.frame()).not.toContain('search history:'));
    expect(app.frame()).toContain('run the unit tests');
    expect(app.client.requests).toHaveLength(0); // put in the prompt, not sent
    app.stdin.write('\x12');
    await waitFor(() => expect(app.frame()).toContain('search history:'));
    app.stdin.write('zzz');
    await waitFor(() => expect(app.frame()).toContain('no match'));
    app.stdin.write(keys.esc);
    await waitFor(() => expect(app.frame()).not.toContain('search history:'));
    expect(app.frame()).toContain('run the unit tests');
    app.stdin.write(keys.enter);
    await waitFor(() => expect(app.frame()).toContain('ran it'));
    expect(JSON.stringify(lastUserContent(app.client))).toContain('run the unit tests');
    // keys read in one chunk: the text is typed, and the line break is Enter
    app.stdin.write('\x12');
    await waitFor(() => expect(app.frame()).toContain('search history:'));
    app.stdin.write('lint\r');
    await waitFor(() => expect(app.frame()).not.toContain('search history:'));
    expect(app.frame()).toContain('run the linter');
  });

  it('sends a prompt and shows the streamed answer as markdown', async () => {
    const app = start([[{ text: 'Here is **the** plan:\n\n' }, { waitMs: 20 }, { text: '1. read\n2. fix' }]]);
    await app.send('make a plan');
    await waitFor(() => expect(app.frame()).toContain('2. fix'));
    expect(app.frame()).toContain('❯ make a plan');
    expect(app.frame()).toContain('● Here is the plan:');
    expect(JSON.stringify(app.client.requests[0]!.messages)).toContain('make a plan');
    await waitFor(() => expect(app.frame()).not.toContain('Working…'));
  });

  it('a background task that ends while the app is idle wakes the model; the transcript shows a line', async () => {
    const notices = new TaskNotices();
    const app = start([[{ text: 'first answer' }], [{ text: 'saw the task end' }]], { notices });
    await app.send('hello');
    await waitFor(() => expect(app.frame()).toContain('first answer'));
    await waitFor(() => expect(app.frame()).not.toContain('Working…'));
    const ended = { taskType: 'local_bash' as const, outputFile: '/tmp/x.log' };
    notices.ended({ ...ended, taskId: 'b00000001', status: 'stopped', summary: 'Background command "y" was stopped', silent: true });
    await tick(50);
    expect(app.client.requests).toHaveLength(1); // the model stopped that one itself: nothing to wake it for
    notices.ended({ ...ended, taskId: 'b12345678', status: 'completed', summary: 'Background command "x" completed (exit code 0)' });
    await waitFor(() => expect(app.frame()).toContain('saw the task end'));
    expect(app.frame()).toContain('● Background task b12345678 finished: Background command "x" completed (exit code 0)');
    expect(app.frame().match(/❯ hello/g)).toHaveLength(1);
    expect(app.client.requests).toHaveLength(2);
    const woke = JSON.stringify(lastUserContent(app.client));
    expect(woke).toContain('<task-id>b12345678</task-id>');
    expect(woke).not.toContain('b00000001');
  });

  it('a prompt given at start is sent at once', async () => {
    const app = start([[{ text: 'started' }]], { initialPrompt: 'go' });
    await waitFor(() => expect(app.frame()).toContain('● started'));
  });

  it('asks before a call; "don\'t ask again" saves the rule in .claude/settings.local.json', async () => {
    const app = start([[{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'poked it' }]]);
    await app.send('poke the bear');
    await waitFor(() => expect(app.frame()).toContain("2. Yes, and don't ask again for Poke(bear)"));
    expect(app.frame()).toContain('Asks because poking bear needs a yes');
    app.stdin.write('2');
    await waitFor(() => expect(app.frame()).toContain('● poked it'));
    expect(app.frame()).toContain('⎿  poked bear');
    await waitFor(() => expect(app.frame()).toContain("Won't ask again for Poke(bear)"));
    const saved = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.local.json'), 'utf8'));
    expect(saved.permissions.allow).toEqual(['Poke(bear)']);
    expect(app.base.permission.rules.allow.map((r) => r.raw)).toEqual(['Poke(bear)']);
  });

  it('"don\'t ask again" with ← saves the rule in the shared .claude/settings.json instead', async () => {
    const app = start([[{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'poked it' }]]);
    await app.send('poke the bear');
    await waitFor(() => expect(app.frame()).toContain("2. Yes, and don't ask again for Poke(bear)"));
    app.stdin.write(keys.down);
    await tick();
    app.stdin.write(keys.left);
    await waitFor(() => expect(app.frame().replace(/\s+/g, ' ')).toContain('Poke(bear) (saved to .claude/settings.json)'));
    app.stdin.write(keys.enter);
    await waitFor(() => expect(app.frame()).toContain("Won't ask again for Poke(bear)"));
    const saved = JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8'));
    expect(saved.permissions.allow).toEqual(['Poke(bear)']);
    expect(existsSync(path.join(dir, '.claude', 'settings.local.json'))).toBe(false);
  });

  it('"No" with a reason stops the turn; the reason is the next prompt, after the rejected call', async () => {
    const app = start([[{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'ok, no bears' }]]);
    await app.send('poke');
    await waitFor(() => expect(app.frame()).toContain('3. No, and tell wicket'));
    app.stdin.write('3');
    await tick(30);
    app.stdin.write('poke the fox instead');
    await tick(30);
    app.stdin.write(keys.enter);
    await waitFor(() => expect(app.frame()).toContain('● ok, no bears'));
    expect(app.client.requests).toHaveLength(2);
    const messages = JSON.stringify(app.client.requests[1]!.messages);
    expect(messages).toContain('STOP what you are doing and wait for the user');
    const last = lastUserContent(app.client) as Array<{ type: string; text?: string }>;
    expect(last.map((b) => b.type)).toEqual(['tool_result', 'text', 'text']);
    expect(last.at(-1)!.text).toBe('poke the fox instead');
    expect(app.frame()).toContain('⎿  Rejected');
    expect(app.frame()).toContain('❯ poke the fox instead');
    expect(app.frame()).not.toContain('Interrupted');
  });

  it('Esc at a permission prompt stops the turn: nothing more is asked of the model until the next prompt', async () => {
    const app = start([[{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'next answer' }]]);
    await app.send('poke');
    await waitFor(() => expect(app.frame()).toContain('3. No, and tell wicket'));
    app.stdin.write(keys.esc);
    await waitFor(() => expect(app.frame()).toContain('⎿  Rejected'));
    await tick(100);
    expect(app.client.requests).toHaveLength(1);
    await app.send('go on');
    await waitFor(() => expect(app.frame()).toContain('● next answer'));
    const sent = JSON.stringify(app.client.requests[1]!.messages);
    expect(sent).toContain('The user doesn');
    expect(sent.indexOf('STOP what you are doing')).toBeLessThan(sent.indexOf('go on'));
  });

  it('parallel asks are queued and answered one at a time', async () => {
    const app = start([
      [
        { tool: 'Poke', input: { what: 'a' } },
        { tool: 'Poke', input: { what: 'b' } },
      ],
      [{ text: 'both done' }],
    ]);
    await app.send('poke both');
    await waitFor(() => expect(app.frame()).toContain('(1 more waiting)'));
    app.stdin.write('1');
    await waitFor(() => expect(app.frame()).toContain('Poke(b)'));
    await tick(30);
    app.stdin.write('1');
    await waitFor(() => expect(app.frame()).toContain('● both done'));
    expect(app.frame()).toContain('poked a');
    expect(app.frame()).toContain('poked b');
  });

  it('Esc interrupts a run; the next prompt works on a valid conversation', async () => {
    const app = start([[{ text: 'thinking hard' }, { hang: true }], [{ text: 'fresh answer' }]]);
    await app.send('long job');
    await waitFor(() => expect(app.frame()).toContain('Working…'));
    app.stdin.write(keys.esc);
    await waitFor(() => expect(app.frame()).toContain('Interrupted'));
    await waitFor(() => expect(app.frame()).not.toContain('Working…'));
    await app.send('again');
    await waitFor(() => expect(app.frame()).toContain('● fresh answer'));
    const msgs = app.client.requests[1]!.messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('Esc pressed right after Enter interrupts the run it started', async () => {
    const app = start([[{ text: 'slow' }, { hang: true }], [{ text: 'later' }]]);
    await tick(30);
    app.stdin.write('go');
    await tick(30);
    app.stdin.write(keys.enter);
    app.stdin.write(keys.esc);
    await waitFor(() => expect(app.frame()).toContain('Interrupted'));
    await waitFor(() => expect(app.frame()).not.toContain('Working…'));
  });

  it('Esc gives the prompt back even when the stream ignores the abort', async () => {
    const app = start([[{ text: 'stuck here' }, { stall: true }], [{ text: 'unstuck' }]]);
    await app.send('hang');
    await waitFor(() => expect(app.frame()).toContain('stuck here'));
    app.stdin.write(keys.esc);
    await waitFor(() => expect(app.frame()).toContain('Interrupted'), 5000);
    await app.send('next');
    await waitFor(() => expect(app.frame()).toContain('● unstuck'));
    const roles = app.client.requests[1]!.messages.map((m) => m.role);
    expect(roles).toEqual(['user']);
    expect(JSON.stringify(app.client.requests[1]!.messages)).toContain('[Request interrupted by the user]');
  });

  it('Shift+Tab cycles the permission mode', async () => {
    const app = start([]);
    await tick(30);
    app.stdin.write(keys.shiftTab);
    await waitFor(() => expect(app.frame()).toContain('accept edits on'));
    expect(app.base.permission.mode).toBe('acceptEdits');
    app.stdin.write(keys.shiftTab);
    await waitFor(() => expect(app.frame()).toContain('plan mode on'));
    app.stdin.write(keys.shiftTab);
    await waitFor(() => expect(app.base.permission.mode).toBe('default'));
  });

  it('Ctrl-C clears the line, then asks to press again', async () => {
    const app = start([]);
    await tick(30);
    app.stdin.write('draft');
    await tick(30);
    app.stdin.write(keys.ctrlC);
    await waitFor(() => expect(app.frame()).not.toContain('draft'));
    app.stdin.write(keys.ctrlC);
    await waitFor(() => expect(app.frame()).toContain('Press Ctrl-C again to exit'));
  });
});

describe('slash commands in the app', () => {
  it('/help, /model, /cost and unknown commands', async () => {
    const app = start([[{ text: 'hi' }]]);
    await app.send('/help');
    await waitFor(() => expect(app.frame()).toContain('/permissions [allow|ask|deny|remove <rule>|suggest]'));
    await app.send('/model opus');
    await waitFor(() => expect(app.frame()).toContain('Set model to claude-opus-4-7 and saved as your default for new sessions'));
    expect(app.base.model).toBe('claude-opus-4-7');
    expect(JSON.parse(readFileSync(path.join(dir, '.claude', 'settings.json'), 'utf8')).model).toBe('opus');
    await app.send('/cost');
    await waitFor(() => expect(app.frame()).toContain('No tokens used yet.'));
    await app.send('/nope');
    await waitFor(() => expect(app.frame()).toContain('Unknown command /nope'));
  });

  it('/trace shows the gates of the last calls; /status the sources', async () => {
    const app = start([[{ tool: 'Poke', input: { what: 'z' } }], [{ text: 'done' }]]);
    await app.send('poke');
    await waitFor(() => expect(app.frame()).toContain('1. Yes'));
    app.stdin.write('1');
    await waitFor(() => expect(app.frame()).toContain('● done'));
    await app.send('/trace');
    await waitFor(() => expect(app.frame()).toContain('Gate trace of the last 1 call'));
    expect(app.frame()).toMatch(/permission\s+allowed/);
    await app.send('/status');
    await waitFor(() => expect(app.frame()).toContain('Settings sources (highest precedence first)'));
    expect(app.frame()).toContain('localSettings');
  });

  it('/permissions adds and removes a rule in .claude/settings.local.json', async () => {
    const app = start([]);
    await app.send('/permissions deny Bash(rm *)');
    await waitFor(() => expect(app.frame()).toContain('Added deny rule Bash(rm *)'));
    const file = path.join(dir, '.claude', 'settings.local.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).permissions.deny).toEqual(['Bash(rm *)']);
    await app.send('/permissions');
    await waitFor(() => expect(app.frame()).toMatch(/deny \(1\)\n\s+Bash\(rm \*\)\s+localSettings/));
    await app.send('/permissions remove Bash(rm *)');
    await waitFor(() => expect(app.frame()).toContain('Removed deny rule Bash(rm *)'));
    expect(JSON.parse(readFileSync(file, 'utf8')).permissions.deny).toEqual([]);
    expect(app.base.permission.rules.deny).toEqual([]);
  });

  it('a custom command from .claude/commands sends its text with $ARGUMENTS', async () => {
    mkdirSync(path.join(dir, '.claude', 'commands', 'git'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'commands', 'git', 'review.md'), '---\ndescription: Review a file\n---\nReview $ARGUMENTS carefully.\n');
    const app = start([[{ text: 'reviewed' }]]);
    await app.send('/git:review src/a.ts');
    await waitFor(() => expect(app.frame()).toContain('● reviewed'));
    expect(JSON.stringify(app.client.requests[0]!.messages)).toContain('Review src/a.ts carefully.');
    expect(app.frame()).toContain('❯ /git:review src/a.ts');
  });

  it("a custom command's inline shell runs through the gates, as its allowed-tools allow, before the text is sent", async () => {
    mkdirSync(path.join(dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'commands', 'ctx.md'), '---\nallowed-tools: Bash(echo:*)\n---\nShell says: !`echo from-the-shell`\n');
    writeFileSync(path.join(dir, '.claude', 'commands', 'peek.md'), 'Host: !`cat /etc/hostname`\n');
    const app = start([[{ text: 'noted' }]], { tools: [bashTool as Tool] });
    await app.send('/peek');
    await waitFor(() => expect(app.frame()).toContain('did not run: it needs permission'));
    expect(app.client.requests).toHaveLength(0);
    await app.send('/ctx');
    await waitFor(() => expect(app.frame()).toContain('● noted'));
    expect(JSON.stringify(app.client.requests[0]!.messages)).toContain('Shell says: from-the-shell');
  });

  it("a custom command's allowed-tools allow the model's calls in its turn only", async () => {
    mkdirSync(path.join(dir, '.claude', 'commands'), { recursive: true });
    writeFileSync(path.join(dir, '.claude', 'commands', 'poke.md'), '---\nallowed-tools: Poke\n---\nPoke the bear.\n');
    const app = start([[{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'poked it' }], [{ tool: 'Poke', input: { what: 'bear' } }], [{ text: 'asked' }]]);
    await app.send('/poke');
    await waitFor(() => expect(app.frame()).toContain('● poked it'));
    expect(app.frame()).not.toContain("Yes, and don't ask again");
    expect(app.base.permission.rules.allow).toEqual([]); // taken out when the turn ended
    await app.send('poke it again');
    await waitFor(() => expect(app.frame()).toContain("2. Yes, and don't ask again for Poke(bear)"));
  });
});
