/**
 * `~/.claude/keybindings.json` as Claude Code reads it: `{ "bindings": [{ "context": "Chat",
 * "bindings": { "ctrl+g": "chat:externalEditor", "ctrl+u": null } }] }`. A keystroke is keys joined
 * by `+` (modifiers ctrl/control, alt/opt/option/meta, shift, cmd/command/super/win; keys escape/esc,
 * enter/return, tab, space, backspace, delete/del, up, down, left, right, home, end, pageup,
 * pagedown, or one character); a chord is keystrokes separated by spaces (`ctrl+x ctrl+e`). An
 * action is `namespace:name`; `null` unbinds the key. Problems are warnings: a block or binding
 * that cannot be read is left out, never the whole file.
 */

export interface Keystroke {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  cmd: boolean;
  /** The key itself, lower case: `a`, `enter`, `escape`, `up`, `space`… */
  key: string;
}

export interface BindingBlock {
  context: string;
  /** Canonical chord (`ctrl+x ctrl+e`) → action, or null for unbound. */
  bindings: Map<string, string | null>;
}

export const CONTEXTS = [
  'Global',
  'Chat',
  'Autocomplete',
  'Confirmation',
  'Help',
  'Transcript',
  'HistorySearch',
  'Task',
  'ThemePicker',
  'Settings',
  'Tabs',
  'Attachments',
  'Footer',
  'MessageSelector',
  'DiffDialog',
  'ModelPicker',
  'Select',
  'Plugin',
  'Scroll',
] as const;

const KEY_ALIASES: Record<string, string> = { esc: 'escape', return: 'enter', del: 'delete', '↑': 'up', '↓': 'down', '←': 'left', '→': 'right' };
const NAMED_KEYS = new Set(['escape', 'enter', 'tab', 'space', 'backspace', 'delete', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown']);

/** One keystroke (`ctrl+shift+k`), or undefined when it names no key or an unknown one. */
export function parseKeystroke(text: string): Keystroke | undefined {
  const k: Keystroke = { ctrl: false, alt: false, shift: false, cmd: false, key: '' };
  // A lone "+" is the key "+"; "ctrl++" is ctrl and "+".
  const parts = text === '+' ? ['+'] : text.endsWith('++') ? [...text.slice(0, -2).split('+'), '+'] : text.split('+');
  for (const raw of parts) {
    const p = raw.trim().toLowerCase();
    if (p === 'ctrl' || p === 'control') k.ctrl = true;
    else if (p === 'alt' || p === 'opt' || p === 'option' || p === 'meta') k.alt = true;
    else if (p === 'shift') k.shift = true;
    else if (p === 'cmd' || p === 'command' || p === 'super' || p === 'win') k.cmd = true;
    else if (k.key) return undefined;
    else k.key = KEY_ALIASES[p] ?? p;
  }
  if (!k.key || (k.key.length > 1 && !NAMED_KEYS.has(k.key) && !/^f\d{1,2}$/.test(k.key))) return undefined;
  return k;
}

/** A chord: keystrokes separated by spaces (`ctrl+x ctrl+e`); `" "` is the space key. */
export function parseChord(text: string): Keystroke[] | undefined {
  if (text === ' ') return [{ ctrl: false, alt: false, shift: false, cmd: false, key: 'space' }];
  const strokes = text.trim().split(/\s+/).map(parseKeystroke);
  return strokes.length && strokes.every((s) => s !== undefined) ? (strokes as Keystroke[]) : undefined;
}

/** The canonical text of a keystroke: modifiers in a fixed order, then the key. */
export function strokeId(k: Keystroke): string {
  return [k.ctrl && 'ctrl', k.alt && 'alt', k.shift && 'shift', k.cmd && 'cmd', k.key].filter(Boolean).join('+');
}

export function chordId(chord: readonly Keystroke[]): string {
  return chord.map(strokeId).join(' ');
}

/** The `bindings` of a keybindings file, and what was left out and why. */
export function parseKeybindingsJson(text: string): { blocks: BindingBlock[]; warnings: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { blocks: [], warnings: [`keybindings.json is not valid JSON: ${(err as Error).message}`] };
  }
  const list = data && typeof data === 'object' && !Array.isArray(data) ? (data as { bindings?: unknown }).bindings : undefined;
  if (!Array.isArray(list)) return { blocks: [], warnings: ['keybindings.json must have a "bindings" array: { "bindings": [ … ] }'] };
  const warnings: string[] = [];
  const blocks = list.flatMap((raw, i) => {
    const block = readBlock(raw, i, warnings);
    return block ? [block] : [];
  });
  return { blocks, warnings };
}

function readBlock(raw: unknown, i: number, warnings: string[]): BindingBlock | undefined {
  const b = raw && typeof raw === 'object' ? (raw as { context?: unknown; bindings?: unknown }) : undefined;
  if (typeof b?.context !== 'string' || !b.bindings || typeof b.bindings !== 'object' || Array.isArray(b.bindings)) {
    warnings.push(`bindings[${i}] left out: each block needs "context" (a string) and "bindings" (an object of keys to an action or null)`);
    return undefined;
  }
  if (!(CONTEXTS as readonly string[]).includes(b.context)) {
    warnings.push(`bindings[${i}] left out: unknown context "${b.context}" (one of ${CONTEXTS.join(', ')})`);
    return undefined;
  }
  const bindings = new Map<string, string | null>();
  for (const [keys, action] of Object.entries(b.bindings as Record<string, unknown>)) {
    const chord = parseChord(keys);
    if (!chord) warnings.push(`${b.context}: "${keys}" is not a keystroke (e.g. "ctrl+g", "ctrl+x ctrl+e")`);
    else if (action !== null && (typeof action !== 'string' || !/^[\w-]+:[\w-]+$/.test(action)))
      warnings.push(`${b.context}: "${keys}" needs an action like "chat:externalEditor", or null to unbind it`);
    else bindings.set(chordId(chord), action as string | null);
  }
  return { context: b.context, bindings };
}
