/**
 * The terminal's own notification, by settings `preferredNotifChannel` as Claude Code reads it: a bell
 * (`terminal_bell`), OSC 9 (`iterm2`, and `iterm2_with_bell` with a bell after), OSC 99 (`kitty`),
 * OSC 777 (`ghostty`), nothing (`notifications_disabled`); `auto` picks by the terminal (iTerm2,
 * kitty, ghostty, WezTerm), else the bell. Inside tmux the sequence is passed through to the outer
 * terminal.
 */
import type { NotifChannel } from './preferences.js';

type Env = Record<string, string | undefined>;

function byTerminal(env: Env): Exclude<NotifChannel, 'auto'> {
  const term = `${env.TERM_PROGRAM ?? ''} ${env.TERM ?? ''} ${env.LC_TERMINAL ?? ''}`;
  if (/iTerm/i.test(term)) return 'iterm2';
  if (/kitty/i.test(term)) return 'kitty';
  if (/ghostty|WezTerm/i.test(term)) return 'ghostty';
  return 'terminal_bell';
}

function clean(s: string): string {
  return s.replace(/[\x00-\x1f\x7f;]/g, ' ').slice(0, 200);
}

/** The bytes to write for a notification; empty when notifications are off. */
export function notifySequence(channel: NotifChannel, title: string, message: string, env: Env): string {
  const c = channel === 'auto' ? byTerminal(env) : channel;
  const t = clean(title);
  const m = clean(message);
  let seq: string;
  if (c === 'notifications_disabled') return '';
  if (c === 'terminal_bell') return '\x07';
  if (c === 'iterm2' || c === 'iterm2_with_bell') seq = `\x1b]9;\n\n${m}\x07${c === 'iterm2_with_bell' ? '\x07' : ''}`;
  else if (c === 'kitty') seq = `\x1b]99;i=1:d=0;${t}\x1b\\\x1b]99;i=1:p=body;${m}\x1b\\`;
  else seq = `\x1b]777;notify;${t};${m}\x07`;
  return env.TMUX ? `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}\x1b\\` : seq;
}
