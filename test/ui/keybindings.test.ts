/** The keybindings file as Claude Code reads it: keystrokes, chords, contexts, unbinding, and what is left out. */
import { describe, expect, it } from 'vitest';
import { defaultBlocks } from '../../src/ui/keybindings/defaults.js';
import { Keymap } from '../../src/ui/keybindings/keymap.js';
import { chordId, parseChord, parseKeybindingsJson, parseKeystroke, strokeId } from '../../src/ui/keybindings/parse.js';

const stroke = (s: string) => parseKeystroke(s)!;

describe('keystrokes', () => {
  it('read modifiers by any of their names, in any order, and key aliases', () => {
    expect(strokeId(stroke('Ctrl+Shift+K'))).toBe('ctrl+shift+k');
    expect(strokeId(stroke('shift+control+k'))).toBe('ctrl+shift+k');
    expect(strokeId(stroke('opt+p'))).toBe('alt+p');
    expect(strokeId(stroke('meta+p'))).toBe('alt+p');
    expect(strokeId(stroke('command+k'))).toBe('cmd+k');
    expect(strokeId(stroke('esc'))).toBe('escape');
    expect(strokeId(stroke('return'))).toBe('enter');
    expect(strokeId(stroke('ctrl++'))).toBe('ctrl++');
    expect(strokeId(stroke('f5'))).toBe('f5');
  });

  it('refuse what names no key, two keys, or an unknown key name', () => {
    expect(parseKeystroke('ctrl+')).toBeUndefined();
    expect(parseKeystroke('ctrl+a+b')).toBeUndefined();
    expect(parseKeystroke('ctrl+banana')).toBeUndefined();
  });

  it('chords are keystrokes separated by spaces; " " is the space key', () => {
    expect(chordId(parseChord('ctrl+x   ctrl+e')!)).toBe('ctrl+x ctrl+e');
    expect(chordId(parseChord(' ')!)).toBe('space');
    expect(parseChord('ctrl+x nope+e')).toBeUndefined();
  });
});

describe('the keybindings file', () => {
  it('reads blocks by context; a bad block or binding is left out with a warning, the rest stays', () => {
    const { blocks, warnings } = parseKeybindingsJson(
      JSON.stringify({
        $schema: 'https://www.schemastore.org/claude-code-keybindings.json',
        bindings: [
          { context: 'Chat', bindings: { 'ctrl+e': 'chat:externalEditor', 'ctrl+u': null, 'ctrl+nope': 'chat:submit', 'ctrl+k': 'not an action' } },
          { context: 'Nowhere', bindings: { 'ctrl+a': 'app:exit' } },
          { bindings: {} },
        ],
      }),
    );
    expect(blocks).toHaveLength(1);
    expect([...blocks[0]!.bindings]).toEqual([
      ['ctrl+e', 'chat:externalEditor'],
      ['ctrl+u', null],
    ]);
    expect(warnings).toHaveLength(4);
    expect(warnings.join('\n')).toMatch(/unknown context "Nowhere"/);
  });

  it('a file that is not JSON or has no bindings array gives one warning and no bindings', () => {
    expect(parseKeybindingsJson('{ nope').warnings[0]).toMatch(/not valid JSON/);
    expect(parseKeybindingsJson('[]').warnings[0]).toMatch(/must have a "bindings" array/);
  });
});

describe('the keymap', () => {
  const user = parseKeybindingsJson(
    JSON.stringify({
      bindings: [
        { context: 'Chat', bindings: { 'ctrl+e': 'chat:externalEditor', 'ctrl+g': null } },
        { context: 'Global', bindings: { 'ctrl+k ctrl+t': 'app:toggleTranscript' } },
      ],
    }),
  ).blocks;
  const keymap = () => new Keymap([...defaultBlocks(), ...user]);

  it('the person’s bindings add to the defaults and override them; null unbinds', () => {
    const k = keymap();
    expect(k.resolve(stroke('ctrl+e'), ['Chat', 'Global'])).toEqual({ kind: 'action', action: 'chat:externalEditor' });
    expect(k.resolve(stroke('ctrl+g'), ['Chat', 'Global'])).toEqual({ kind: 'unbound' });
    expect(k.resolve(stroke('ctrl+o'), ['Chat', 'Global'])).toEqual({ kind: 'action', action: 'app:toggleTranscript' });
    expect(k.resolve(stroke('a'), ['Chat', 'Global'])).toEqual({ kind: 'none' });
  });

  it('a context not active does not answer; the most specific context comes first', () => {
    const k = keymap();
    expect(k.resolve(stroke('ctrl+b'), ['Chat', 'Global'])).toEqual({ kind: 'none' });
    expect(k.resolve(stroke('ctrl+b'), ['Task', 'Chat', 'Global'])).toEqual({ kind: 'action', action: 'task:background' });
    expect(k.resolve(stroke('escape'), ['Transcript', 'Global'])).toEqual({ kind: 'action', action: 'transcript:exit' });
  });

  it('a chord waits for its second keystroke; a broken chord lets the keystroke count alone', () => {
    const k = keymap();
    expect(k.resolve(stroke('ctrl+x'), ['Chat', 'Global'])).toEqual({ kind: 'pending' });
    expect(k.resolve(stroke('ctrl+e'), ['Chat', 'Global'])).toEqual({ kind: 'action', action: 'chat:externalEditor' });
    expect(k.resolve(stroke('ctrl+k'), ['Chat', 'Global'])).toEqual({ kind: 'pending' });
    expect(k.resolve(stroke('ctrl+t'), ['Chat', 'Global'])).toEqual({ kind: 'action', action: 'app:toggleTranscript' });
    expect(k.resolve(stroke('ctrl+k'), ['Chat', 'Global'])).toEqual({ kind: 'pending' });
    expect(k.resolve(stroke('ctrl+o'), ['Chat', 'Global'])).toEqual({ kind: 'action', action: 'app:toggleTranscript' });
  });
});
