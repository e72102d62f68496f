/**
 * /terminal-setup, as Claude Code does it: Shift+Enter adds a line. Where the terminal tells Shift+Enter
 * from Enter by itself (iTerm2, WezTerm, Ghostty, Kitty, Warp, Windows Terminal) nothing is written.
 * In the terminals it can configure, it writes what Claude Code writes — a `shift+enter` binding that
 * sends ESC CR (which the prompt takes as a new line) in VS Code's, Cursor's or Windsurf's
 * keybindings.json, Alacritty's alacritty.toml, Zed's keymap.json — after copying the file to
 * `<file>.<hex>.bak`, atomically, and says what it changed. Anywhere else it says it cannot, and how
 * a line is added there (\ then Enter, or Ctrl+J).
 */
import { copyFile, mkdir, readFile } from '../base/fs/lazy-fs.js';
import path from 'node:path';
import type { ParseError } from 'jsonc-parser';
import { jsoncLib } from '../settings/jsonc-lib.js';
import { randomHex } from '../base/ids.js';
import { writeFileAtomic } from '../base/fs/write-file-atomic.js';
import { editJsonc } from '../settings/jsonc-edit.js';

type Env = Record<string, string | undefined>;

const NATIVE: Record<string, string> = {
  ghostty: 'Ghostty',
  kitty: 'Kitty',
  'iTerm.app': 'iTerm2',
  WezTerm: 'WezTerm',
  WarpTerminal: 'Warp',
  'windows-terminal': 'Windows Terminal',
};

const ESC_CR = '\x1b\r';
const FALLBACK = 'A line is added anywhere by \\ then Enter, or Ctrl+J.';

export interface SetupPlaces {
  home: string;
  platform: NodeJS.Platform;
}

/** The terminal as Claude Code names it, from the environment. */
export function terminalOf(env: Env): string | undefined {
  if (env.WT_SESSION) return 'windows-terminal';
  const program = env.TERM_PROGRAM;
  if (program === 'vscode') {
    if (env.CURSOR_TRACE_ID) return 'cursor';
    if (/windsurf|devin/i.test(`${env.VSCODE_GIT_ASKPASS_MAIN ?? ''} ${env.__CFBundleIdentifier ?? ''}`)) return 'windsurf';
    return 'vscode';
  }
  if (program) return program === 'zed' ? 'zed' : program;
  if (env.TERM === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'kitty';
  if (env.TERM === 'alacritty' || env.ALACRITTY_LOG || env.ALACRITTY_SOCKET) return 'alacritty';
  if (env.TERM === 'xterm-ghostty') return 'ghostty';
  return undefined;
}

/** Runs /terminal-setup for the terminal of `env`: what it changed, or why nothing. */
export async function terminalSetup(env: Env, places: SetupPlaces): Promise<string> {
  const t = terminalOf(env);
  if (t && NATIVE[t]) return `Shift+Enter is natively supported in ${NATIVE[t]}.\n\nNo configuration needed. Just use Shift+Enter to add newlines.`;
  const editor = t === 'vscode' ? 'Code' : t === 'cursor' ? 'Cursor' : t === 'windsurf' ? 'Windsurf' : undefined;
  if (editor) {
    if (/\.(vscode|cursor|windsurf|devin)-server/.test(`${env.VSCODE_GIT_ASKPASS_MAIN ?? ''} ${env.PATH ?? ''}`))
      return `Can't install keybindings from a remote ${shown(editor)} session: install the Shift+Enter binding in ${shown(editor)} on your local machine (Preferences: Open Keyboard Shortcuts (JSON)):\n${JSON.stringify(VSCODE_BINDING)}`;
    return vscodeBinding(editor, path.join(editorUserDir(places, editor), 'keybindings.json'));
  }
  if (t === 'alacritty') return alacrittyBinding(env, places);
  if (t === 'zed')
    return zedBinding(
      path.join(env.XDG_CONFIG_HOME && places.platform === 'linux' ? env.XDG_CONFIG_HOME : path.join(places.home, '.config'), 'zed', 'keymap.json'),
    );
  const name = t ?? 'this terminal';
  const tmux =
    t === 'tmux'
      ? "\nInside tmux, Shift+Enter also needs these lines in ~/.tmux.conf, then `tmux source-file ~/.tmux.conf` and a detach and reattach:\n  set -s extended-keys on\n  set -as terminal-features 'xterm*:extkeys'"
      : '';
  const apple =
    t === 'Apple_Terminal' ? ' In Terminal.app, turn on Settings → Profiles → Keyboard → "Use Option as Meta key": Option+Enter then adds a line.' : '';
  return `Terminal setup can't configure ${name}: it sets up Shift+Enter in VS Code, Cursor, Windsurf, Alacritty and Zed (iTerm2, WezTerm, Ghostty, Kitty, Warp and Windows Terminal need nothing). ${FALLBACK}${apple}${tmux}`;
}

const VSCODE_BINDING = { key: 'shift+enter', command: 'workbench.action.terminal.sendSequence', args: { text: ESC_CR }, when: 'terminalFocus' };

function editorUserDir(p: SetupPlaces, dir: string): string {
  if (p.platform === 'win32') return path.join(p.home, 'AppData', 'Roaming', dir, 'User');
  if (p.platform === 'darwin') return path.join(p.home, 'Library', 'Application Support', dir, 'User');
  return path.join(p.home, '.config', dir, 'User');
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Copies `file` beside itself before a change; its path. */
async function backUp(file: string): Promise<string> {
  const bak = `${file}.${randomHex(4)}.bak`;
  await copyFile(file, bak);
  return bak;
}

async function write(file: string, text: string, old: string | undefined): Promise<string> {
  const bak = old === undefined ? undefined : await backUp(file);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
  return bak ? `\nThe file as it was is kept in ${bak}.` : '';
}

function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const v = jsoncLib().parse(text, errors, { allowTrailingComma: true });
  return errors.length ? undefined : v;
}

const shown = (editor: string) => (editor === 'Code' ? 'VS Code' : editor);

async function vscodeBinding(editor: string, file: string): Promise<string> {
  const name = shown(editor);
  try {
    const old = await readText(file);
    const list = old === undefined || !old.trim() ? [] : parseJsonc(old);
    if (!Array.isArray(list))
      return `${file} is not a JSON list of keybindings, so it was left unchanged. Add this binding to it:\n${JSON.stringify(VSCODE_BINDING)}`;
    const same = list.find((b) => b?.key === VSCODE_BINDING.key && b?.command === VSCODE_BINDING.command && b?.when === VSCODE_BINDING.when);
    if (same?.args?.text === ESC_CR) return `${name} terminal Shift+Enter key binding already configured.\nSee ${file}`;
    if (same) return `${name} already has a Shift+Enter terminal binding with different args; leaving it as-is.\nSee ${file}`;
    const text = old?.trim()
      ? editJsonc(`{"k":${old}}`, { k: list }, { k: [...list, VSCODE_BINDING] }, 2)
          .replace(/^\{"k":/, '')
          .replace(/\}$/, '')
      : `${JSON.stringify([VSCODE_BINDING], null, 2)}\n`;
    const kept = await write(file, text, old);
    return `Installed ${name} terminal Shift+Enter key binding: Shift+Enter sends ESC CR, which adds a line.\nChanged ${file}${kept}`;
  } catch (err) {
    return `Couldn't install the ${name} terminal Shift+Enter key binding: ${(err as Error).message}`;
  }
}

async function alacrittyBinding(env: Env, places: SetupPlaces): Promise<string> {
  const file = path.join(env.XDG_CONFIG_HOME || path.join(places.home, '.config'), 'alacritty', 'alacritty.toml');
  try {
    const old = await readText(file);
    if (old?.includes('mods = "Shift"') && old.includes('key = "Return"')) return `Alacritty Shift+Enter key binding already configured.\nSee ${file}`;
    const base = old && !old.endsWith('\n') ? `${old}\n` : (old ?? '');
    const kept = await write(file, `${base}\n[[keyboard.bindings]]\nkey = "Return"\nmods = "Shift"\nchars = "\\u001B\\r"\n`, old);
    return `Installed Alacritty Shift+Enter key binding (restart Alacritty if Shift+Enter doesn't work yet).\nChanged ${file}${kept}`;
  } catch (err) {
    return `Couldn't install the Alacritty Shift+Enter key binding: ${(err as Error).message}`;
  }
}

const ZED_BLOCK = { context: 'Terminal', bindings: { 'shift-enter': ['terminal::SendText', ESC_CR] } };

async function zedBinding(file: string): Promise<string> {
  try {
    const old = await readText(file);
    const list = old === undefined || !old.trim() ? [] : parseJsonc(old);
    if (!Array.isArray(list))
      return `Your Zed keymap isn't a readable list of keybindings, so it was left unchanged. Add this block to it:\n${JSON.stringify(ZED_BLOCK)}`;
    if (list.some((b) => b?.context === 'Terminal' && b?.bindings && 'shift-enter' in b.bindings))
      return `Zed Shift+Enter key binding already configured.\nSee ${file}`;
    const text = old?.trim()
      ? editJsonc(`{"k":${old}}`, { k: list }, { k: [...list, ZED_BLOCK] }, 2)
          .replace(/^\{"k":/, '')
          .replace(/\}$/, '')
      : `${JSON.stringify([ZED_BLOCK], null, 2)}\n`;
    const kept = await write(file, text, old);
    return `Installed Zed Shift+Enter key binding.\nChanged ${file}${kept}`;
  } catch (err) {
    return `Couldn't install the Zed Shift+Enter key binding: ${(err as Error).message}`;
  }
}
