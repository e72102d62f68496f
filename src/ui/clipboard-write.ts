/**
 * Text to the system clipboard, as Claude Code's /copy puts it there: the first clipboard command found
 * on the PATH (pbcopy, wl-copy under Wayland, xclip or xsel under X), else an OSC 52 sequence, which
 * the terminal itself (and tmux, with set-clipboard on) turns into a copy, over SSH too.
 */
import { spawnSync } from 'node:child_process';

type Env = Record<string, string | undefined>;

/** The clipboard commands to try, first one first, for this session's display. */
function copiers(env: Env): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [['pbcopy', []]];
  if (env.WAYLAND_DISPLAY) out.push(['wl-copy', []]);
  if (env.DISPLAY) out.push(['xclip', ['-selection', 'clipboard']], ['xsel', ['--clipboard', '--input']]);
  return out;
}

/** The OSC 52 sequence that sets the clipboard (inside tmux, passed through to the outer terminal). */
export function osc52(text: string, env: Env): string {
  const seq = `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
  return env.TMUX ? `\x1bPtmux;${seq.replace(/\x1b/g, '\x1b\x1b')}\x1b\\` : seq;
}

/** Copies `text`: how it went there ("xclip", "OSC 52"), for the note the person reads. */
export function copyToClipboard(text: string, env: Env, write: (s: string) => void): string {
  for (const [cmd, args] of copiers(env)) {
    const r = spawnSync(cmd, args, { input: text, env: { ...process.env, ...env } as NodeJS.ProcessEnv, timeout: 3000, stdio: ['pipe', 'ignore', 'ignore'] });
    if (!r.error && r.status === 0) return cmd;
  }
  write(osc52(text, env));
  return 'OSC 52';
}
