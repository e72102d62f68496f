/**
 * /terminal-setup writes what Claude Code writes for Shift+Enter in the terminals it configures (VS Code,
 * Cursor, Alacritty, Zed), keeps a backup of a file it changes and says so; it leaves alone what is
 * already there, and says when a terminal needs nothing or cannot be configured.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalSetup } from '../../src/ui/terminal-setup.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'wicket-term-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const places = () => ({ home, platform: 'linux' as const });
const backups = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.bak'));

describe('/terminal-setup', () => {
  it('VS Code: adds the shift+enter binding (ESC CR) to keybindings.json, comments kept, a backup made; a second run changes nothing', async () => {
    const dir = path.join(home, '.config', 'Code', 'User');
    const file = path.join(dir, 'keybindings.json');
    mkdirSync(dir, { recursive: true });
    const before = '// mine\n[\n  { "key": "ctrl+k", "command": "x" }\n]\n';
    writeFileSync(file, before);
    const said = await terminalSetup({ TERM_PROGRAM: 'vscode' }, places());
    expect(said).toContain('Installed VS Code terminal Shift+Enter key binding');
    expect(said).toContain(`Changed ${file}`);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// mine');
    const list = JSON.parse(text.replace('// mine', ''));
    expect(list).toEqual([
      { key: 'ctrl+k', command: 'x' },
      { key: 'shift+enter', command: 'workbench.action.terminal.sendSequence', args: { text: '\x1b\r' }, when: 'terminalFocus' },
    ]);
    const [bak] = backups(dir);
    expect(readFileSync(path.join(dir, bak!), 'utf8')).toBe(before);
    expect(said).toContain(bak);
    expect(await terminalSetup({ TERM_PROGRAM: 'vscode' }, places())).toContain('already configured');
    expect(backups(dir)).toHaveLength(1);
  });

  it('Cursor: a new keybindings.json; one with another Shift+Enter binding is left as it is; a remote session installs nothing', async () => {
    const file = path.join(home, '.config', 'Cursor', 'User', 'keybindings.json');
    await terminalSetup({ TERM_PROGRAM: 'vscode', CURSOR_TRACE_ID: 'x' }, places());
    expect(JSON.parse(readFileSync(file, 'utf8'))[0].args.text).toBe('\x1b\r');
    const other = JSON.stringify([{ key: 'shift+enter', command: 'workbench.action.terminal.sendSequence', args: { text: '\\\n' }, when: 'terminalFocus' }]);
    writeFileSync(file, other);
    expect(await terminalSetup({ TERM_PROGRAM: 'vscode', CURSOR_TRACE_ID: 'x' }, places())).toContain('different args; leaving it as-is');
    expect(readFileSync(file, 'utf8')).toBe(other);
    const remote = await terminalSetup({ TERM_PROGRAM: 'vscode', PATH: '/root/.vscode-server/bin:/usr/bin' }, places());
    expect(remote).toContain("Can't install keybindings from a remote VS Code session");
    expect(existsSync(path.join(home, '.config', 'Code'))).toBe(false);
  });

  it('Alacritty and Zed: the binding appended, with a backup of the file that was there', async () => {
    const toml = path.join(home, '.config', 'alacritty', 'alacritty.toml');
    mkdirSync(path.dirname(toml), { recursive: true });
    writeFileSync(toml, '[font]\nsize = 12');
    expect(await terminalSetup({ TERM: 'alacritty' }, places())).toContain('Installed Alacritty Shift+Enter key binding');
    expect(readFileSync(toml, 'utf8')).toBe('[font]\nsize = 12\n\n[[keyboard.bindings]]\nkey = "Return"\nmods = "Shift"\nchars = "\\u001B\\r"\n');
    expect(backups(path.dirname(toml))).toHaveLength(1);
    await terminalSetup({ TERM_PROGRAM: 'zed' }, places());
    const keymap = JSON.parse(readFileSync(path.join(home, '.config', 'zed', 'keymap.json'), 'utf8'));
    expect(keymap).toEqual([{ context: 'Terminal', bindings: { 'shift-enter': ['terminal::SendText', '\x1b\r'] } }]);
  });

  it('a terminal with native Shift+Enter needs nothing; one it cannot configure is named, with the keys that work there', async () => {
    expect(await terminalSetup({ TERM_PROGRAM: 'ghostty' }, places())).toContain('Shift+Enter is natively supported in Ghostty');
    expect(await terminalSetup({ TERM_PROGRAM: 'iTerm.app' }, places())).toContain('natively supported in iTerm2');
    const tmux = await terminalSetup({ TERM_PROGRAM: 'tmux' }, places());
    expect(tmux).toContain("Terminal setup can't configure tmux");
    expect(tmux).toContain('\\ then Enter, or Ctrl+J');
    expect(tmux).toContain('set -s extended-keys on');
    expect(await terminalSetup({ TERM_PROGRAM: 'Apple_Terminal' }, places())).toContain('Use Option as Meta key');
    expect(readdirSync(home)).toEqual([]);
  });
});
