/**
 * Notifications in a real terminal (tmux): the Notification hook fires with `permission_prompt` when a
 * permission prompt waits and with `idle_prompt` once the prompt has waited messageIdleNotifThresholdMs
 * after a turn; preferredNotifChannel picks the terminal's own notification (bell, OSC 9, OSC 99, OSC 777).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifySequence } from '../../src/ui/notify.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { openApp, pause, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();

describe('the terminal notification of each channel', () => {
  it('bell, OSC 9 (with a bell), OSC 99, OSC 777, nothing; auto by the terminal; passed through tmux', () => {
    expect(notifySequence('terminal_bell', 'wicket', 'done', {})).toBe('\x07');
    expect(notifySequence('iterm2', 'wicket', 'done', {})).toBe('\x1b]9;\n\ndone\x07');
    expect(notifySequence('iterm2_with_bell', 'wicket', 'done', {})).toBe('\x1b]9;\n\ndone\x07\x07');
    expect(notifySequence('ghostty', 'wicket', 'done; now', {})).toBe('\x1b]777;notify;wicket;done  now\x07');
    expect(notifySequence('kitty', 'wicket', 'done', {})).toContain('\x1b]99;i=1:p=body;done\x1b\\');
    expect(notifySequence('notifications_disabled', 'wicket', 'done', {})).toBe('');
    expect(notifySequence('auto', 'wicket', 'done', { TERM_PROGRAM: 'iTerm.app' })).toBe('\x1b]9;\n\ndone\x07');
    expect(notifySequence('auto', 'wicket', 'done', { TERM: 'xterm-256color' })).toBe('\x07');
    expect(notifySequence('ghostty', 'wicket', 'done', { TMUX: '/tmp/t' })).toBe('\x1bPtmux;\x1b\x1b]777;notify;wicket;done\x07\x1b\\');
  });
});

describe.skipIf(!hasTmux())('the Notification hook in the app', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('fires permission_prompt while a prompt waits, and idle_prompt once the prompt has waited after a turn', async () => {
    const { project, api, tui } = await openApp(cleanups, {
      home: { '.claude.json': JSON.stringify({ messageIdleNotifThresholdMs: 800 }) },
      settings: {
        hooks: {
          Notification: [{ hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/notes.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/notes.jsonl"' }] }],
        },
      },
    });
    const notes = () => {
      const f = path.join(project.dir, 'notes.jsonl');
      return existsSync(f)
        ? readFileSync(f, 'utf8')
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l) as { notification_type: string; message: string })
        : [];
    };
    api.script(reply().toolUse('Write', { file_path: path.join(project.dir, 'a.txt'), content: 'x' }), reply().text('Written.'));
    await send(tui, 'write a');
    await tui.waitFor('Do you want to create a.txt?');
    for (let i = 0; i < 40 && !notes().length; i++) await pause(100);
    expect(notes()[0]).toMatchObject({ notification_type: 'permission_prompt' });
    tui.type('1');
    await tui.waitFor('● Written.');
    for (let i = 0; i < 60 && notes().length < 2; i++) await pause(100);
    expect(notes()[1]).toMatchObject({ notification_type: 'idle_prompt', message: 'wicket is waiting for your input' });
  });
});
