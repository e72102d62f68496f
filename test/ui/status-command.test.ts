import { describe, expect, it } from 'vitest';
import { displayName } from '../../src/ui/hooks/use-status-command.js';
import { runStatusCommand, statusLineSetting } from '../../src/ui/status-command.js';

describe('settings statusLine', () => {
  it('takes a command entry, with padding and refreshInterval; ignores anything else', () => {
    expect(statusLineSetting({ statusLine: { type: 'command', command: '~/.claude/statusline.sh', padding: 2, refreshInterval: 5 } })).toEqual({
      command: '~/.claude/statusline.sh',
      padding: 2,
      refreshSeconds: 5,
    });
    expect(statusLineSetting({ statusLine: { command: 'x' } })).toEqual({ command: 'x', padding: 0 });
    expect(statusLineSetting({ statusLine: { type: 'static', text: 'hi' } })).toBeUndefined();
    expect(statusLineSetting({ statusLine: 'echo hi' })).toBeUndefined();
    expect(statusLineSetting({})).toBeUndefined();
  });

  it('runs the command with the session on stdin; a failing or slow command shows nothing', async () => {
    const opts = { cwd: process.cwd(), env: { PATH: process.env.PATH }, columns: 80, rows: 24, signal: new AbortController().signal };
    expect(await runStatusCommand({ command: 'read x; echo "got $x"; echo second', padding: 0 }, { a: 1 }, opts)).toEqual(['got {"a":1}', 'second']);
    expect(await runStatusCommand({ command: 'echo partial; exit 3', padding: 0 }, {}, opts)).toEqual([]);
    const cancelled = new AbortController();
    const slow = runStatusCommand({ command: 'sleep 5; echo late', padding: 0 }, {}, { ...opts, signal: cancelled.signal });
    cancelled.abort();
    expect(await slow).toEqual([]);
  });

  it('names models as Claude Code does', () => {
    expect(displayName('claude-sonnet-4-6')).toBe('Sonnet 4.6');
    expect(displayName('claude-opus-4-20250514')).toBe('Opus 4');
    expect(displayName('claude-haiku-4-5-20251001')).toBe('Haiku 4.5');
    expect(displayName('my-model')).toBe('my-model');
  });
});
