/**
 * Fast, ANSI-aware wrapping of text we hand to Ink. Ink wraps any <Text> wider than its box with
 * wrap-ansi, which measures character by character (milliseconds per long line, on every frame the
 * text changes); text that already fits is only measured, once, and cached. Code lines and list
 * items from marked-terminal are not reflowed, so they are wrapped here.
 */
import stringWidth from 'string-width';

const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const ANSI_ALL = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const RESET = '\x1b[0m';

/** Columns a string takes on screen (ANSI codes excluded), with a fast path for plain ASCII. */
export function visibleWidth(s: string): number {
  const plain = s.includes('\x1b') ? s.replace(ANSI_ALL, '') : s;
  if (PRINTABLE_ASCII.test(plain)) return plain.length;
  return stringWidth(plain);
}

function charWidth(ch: string): number {
  const c = ch.codePointAt(0)!;
  return c >= 0x20 && c < 0x7f ? 1 : stringWidth(ch);
}

/** Leading spaces plus a list marker ("* ", "- ", "12. "): where continuation rows start. */
function hangingIndent(plain: string): number {
  const m = /^( *)(?:[*+-] |\d+[.)] )?/.exec(plain);
  return m ? Math.min(m[0].length, 24) : 0;
}

/**
 * Wraps every line wider than `width` at spaces (or mid-word when a word is too long), keeping
 * colors across the break and indenting continuation rows like the line's text.
 */
export function wrapAnsi(text: string, width: number): string {
  if (width < 4) return text;
  return text
    .split('\n')
    .map((line) => (visibleWidth(line) <= width ? line : wrapLine(line, width)))
    .join('\n');
}

interface Piece {
  text: string;
  width: number;
  /** Escape codes are kept with the text but take no room. */
  code: boolean;
}

function pieces(line: string): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  while (i < line.length) {
    ANSI.lastIndex = i;
    const m = ANSI.exec(line);
    if (m) {
      out.push({ text: m[0], width: 0, code: true });
      i += m[0].length;
      continue;
    }
    const ch = String.fromCodePoint(line.codePointAt(i)!);
    out.push({ text: ch, width: charWidth(ch), code: false });
    i += ch.length;
  }
  return out;
}

function wrapLine(line: string, width: number): string {
  const ps = pieces(line);
  const indent = ' '.repeat(
    Math.min(
      hangingIndent(
        ps
          .filter((p) => !p.code)
          .map((p) => p.text)
          .join(''),
      ),
      Math.floor(width / 2),
    ),
  );
  const rows: string[] = [];
  let active: string[] = [];
  let row: Piece[] = [];
  let rowWidth = 0;
  const flush = (upTo: number) => {
    const taken = row.slice(0, upTo);
    const rest = row.slice(upTo);
    rows.push(
      taken
        .map((p) => p.text)
        .join('')
        .replace(/ +$/, '') + (active.length ? RESET : ''),
    );
    while (rest.length && rest[0]!.text === ' ') rest.shift();
    row = [{ text: indent + active.join(''), width: indent.length, code: false }, ...rest];
    rowWidth = row.reduce((n, p) => n + p.width, 0);
  };
  for (const p of ps) {
    if (p.code) {
      if (p.text === RESET || p.text === '\x1b[m') active = [];
      else if (p.text.startsWith('\x1b[')) active.push(p.text);
      row.push(p);
      continue;
    }
    if (rowWidth + p.width > width) {
      if (p.text === ' ') {
        flush(row.length);
        continue;
      }
      let at = -1;
      for (let k = row.length - 1; k > 1; k--)
        if (row[k]!.text === ' ') {
          at = k;
          break;
        }
      flush(at > 0 ? at : row.length);
    }
    row.push(p);
    rowWidth += p.width;
  }
  rows.push(row.map((p) => p.text).join(''));
  return rows.join('\n');
}
