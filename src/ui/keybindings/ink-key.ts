/** An Ink key event as a keystroke (keybindings/parse.ts), or undefined for text that is no single key (a paste). */
import type { Key } from 'ink';
import type { Keystroke } from './parse.js';

export function strokeOf(input: string, key: Key): Keystroke | undefined {
  const k: Keystroke = { ctrl: key.ctrl, alt: key.meta && !key.escape, shift: key.shift, cmd: key.super, key: '' };
  if (key.escape) k.key = 'escape';
  else if (key.return) k.key = 'enter';
  else if (key.tab) k.key = 'tab';
  else if (key.backspace) k.key = 'backspace';
  else if (key.delete) k.key = 'delete';
  else if (key.upArrow) k.key = 'up';
  else if (key.downArrow) k.key = 'down';
  else if (key.leftArrow) k.key = 'left';
  else if (key.rightArrow) k.key = 'right';
  else if (key.home) k.key = 'home';
  else if (key.end) k.key = 'end';
  else if (key.pageUp) k.key = 'pageup';
  else if (key.pageDown) k.key = 'pagedown';
  else if (input === ' ') k.key = 'space';
  else if ([...input].length === 1) {
    k.key = input.toLowerCase();
    // Shift is in the character itself ("G"): "shift+g" names it too.
    if (input !== input.toLowerCase()) k.shift = true;
  } else return undefined;
  return k;
}
