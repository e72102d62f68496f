/**
 * /help: the commands in two columns and the keys. The first column is as wide as the longest
 * name up to NAME_COLUMN; a longer name (an MCP prompt's) has its description on the next line.
 * Descriptions wrap under their column, at the terminal's width.
 */
import type { SlashCommand } from './types.js';

const NAME_COLUMN = 28;

export const KEYS = [
  'enter send · shift+enter, alt+enter, ctrl+j or \\ then enter: new line',
  'esc interrupt · ctrl+c clear (twice: exit) · ctrl+d on an empty line: exit',
  'shift+tab cycle permission mode · up/down history · ctrl+r search history · tab complete a command',
  'ctrl+g edit the prompt in $EDITOR · ctrl+o the full transcript · ctrl+b send a running command to the background',
  'ctrl+v paste an image (or paste an image file’s path) · ! run a shell command · ~/.claude/keybindings.json rebinds keys',
];

export const help: SlashCommand = {
  name: 'help',
  aliases: ['?'],
  description: 'Show commands and keys',
  source: 'builtin',
  run(_args, s) {
    const columns = Math.max(40, s.columns ?? 80);
    const label = (c: SlashCommand) => `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`;
    const width = Math.min(NAME_COLUMN, Math.max(...s.commands.map((c) => label(c).length)));
    const line = (c: SlashCommand) => entry(label(c), `${c.description}${c.source === 'builtin' ? '' : ` (${c.source})`}`, width, columns);
    const builtins = s.commands.filter((c) => c.source === 'builtin').flatMap(line);
    const custom = s.commands.filter((c) => c.source !== 'builtin').flatMap(line);
    const keys = KEYS.flatMap((k) => wrapWords(k, columns - 4).map((l) => `  ${l}`));
    const text = ['Commands', ...builtins, ...(custom.length ? ['', 'Custom commands', ...custom] : []), '', 'Keys', ...keys];
    return { kind: 'info', text: text.join('\n') };
  },
};

/** `  /name   description`, the description wrapped under its column; a name too long for the column gets a line of its own. */
function entry(name: string, description: string, width: number, columns: number): string[] {
  const indent = 2 + width + 2;
  const lines = wrapWords(description, Math.max(20, columns - indent - 1));
  const pad = ' '.repeat(indent);
  if (name.length > width) return [`  ${name}`, ...lines.map((l) => pad + l)];
  return [`  ${name.padEnd(width)}  ${lines[0] ?? ''}`, ...lines.slice(1).map((l) => pad + l)];
}

/** Words into lines of at most `width` columns (a longer word keeps a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (cur && cur.length + 1 + word.length > width) {
      out.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out;
}
