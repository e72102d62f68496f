/**
 * Does a sed script only print? A small reader of sed's command language that answers false for
 * anything that writes a file (`w`, `W`, the `w` flag of `s`), runs a command (`e`, the `e` flag)
 * or that it does not recognise.
 */

const SIMPLE = new Set(['p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F', '{', '}']);
const WITH_NUMBER = new Set(['q', 'Q', 'l', 'L']);
const WITH_LABEL = new Set([':', 'b', 't', 'T']);
const TEXT = new Set(['a', 'i', 'c']);

export function isPrintOnlySedScript(script: string): boolean {
  return readScript(new Reader(script));
}

/**
 * What a sed script runs: the text of each `e command`, and `unknown` when the `e` flag of `s` runs
 * the pattern space (only known when it runs), a bare `e` does, or the script cannot be read.
 */
export function sedExecutions(script: string): { code: string[]; unknown: boolean } {
  const found = { code: [] as string[], unknown: false };
  const r = new Reader(script, found);
  if (!readScript(r)) found.unknown = true;
  return found;
}

function readScript(r: Reader): boolean {
  try {
    while (r.skipSeparators()) {
      r.address();
      if (r.peek() === ',') {
        r.next();
        r.address();
      }
      r.skipBlanks();
      while (r.peek() === '!') {
        r.next();
        r.skipBlanks();
      }
      if (!r.command()) return false;
    }
    return true;
  } catch {
    return false;
  }
}

class Reader {
  i = 0;
  /** When set, `e` and `w` are read (and `e` recorded) instead of refused. */
  constructor(
    private readonly s: string,
    private readonly exec?: { code: string[]; unknown: boolean },
  ) {}

  peek(): string | undefined {
    return this.s[this.i];
  }

  next(): string {
    const c = this.s[this.i++];
    if (c === undefined) throw new Error('end of script');
    return c;
  }

  skipBlanks(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++;
  }

  /** Skips blanks, `;` and newlines; false at the end. */
  skipSeparators(): boolean {
    while (this.i < this.s.length && /[\s;]/.test(this.s[this.i]!)) this.i++;
    return this.i < this.s.length;
  }

  address(): void {
    const c = this.peek();
    if (c === undefined) return;
    if (/\d/.test(c)) {
      while (/[\d~]/.test(this.peek() ?? '')) this.i++;
    } else if (c === '$') this.i++;
    else if (c === '/') {
      this.i++;
      this.delimited('/');
      while (this.peek() === 'I' || this.peek() === 'M') this.i++;
    } else if (c === '\\') {
      this.i++;
      this.delimited(this.next());
    } else if (c === '+' || c === '~') {
      this.i++;
      while (/\d/.test(this.peek() ?? '')) this.i++;
    }
  }

  /** Reads up to the unescaped delimiter and past it. */
  delimited(d: string): void {
    for (;;) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (c === d) return;
      else if (c === '\n' && d !== '\n') throw new Error('unterminated');
    }
  }

  restOfLine(): void {
    while (this.i < this.s.length && this.s[this.i] !== '\n') {
      if (this.s[this.i] === '\\') this.i++;
      this.i++;
    }
  }

  command(): boolean {
    const c = this.next();
    if (SIMPLE.has(c)) return true;
    if (WITH_NUMBER.has(c)) {
      this.skipBlanks();
      while (/\d/.test(this.peek() ?? '')) this.i++;
      return true;
    }
    if (WITH_LABEL.has(c) || c === '#') {
      while (this.i < this.s.length && !/[;\n]/.test(this.s[this.i]!)) this.i++;
      return true;
    }
    if (TEXT.has(c) || c === 'r' || c === 'R') {
      this.restOfLine();
      return true;
    }
    if (this.exec && (c === 'w' || c === 'W')) {
      this.restOfLine();
      return true;
    }
    if (this.exec && c === 'e') {
      const start = this.i;
      this.restOfLine();
      const text = this.s.slice(start, this.i).trim();
      if (text) this.exec.code.push(text);
      else this.exec.unknown = true;
      return true;
    }
    if (c === 's') return this.substitute();
    if (c === 'y') {
      const d = this.next();
      this.delimited(d);
      this.delimited(d);
      return true;
    }
    return false;
  }

  /** `s/re/replacement/flags`: the `w` and `e` flags write a file or run the pattern space. */
  substitute(): boolean {
    const d = this.next();
    if (d === '\n' || d === '\\') return false;
    this.delimited(d);
    this.delimited(d);
    while (this.i < this.s.length && /[gpiImMe0-9w]/.test(this.s[this.i]!)) {
      const f = this.s[this.i++]!;
      if (f === 'e' && this.exec) this.exec.unknown = true;
      else if (f === 'w' && this.exec) {
        this.restOfLine();
        return true;
      } else if (f === 'w' || f === 'e') return false;
    }
    return true;
  }
}
