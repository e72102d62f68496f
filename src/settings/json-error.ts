/**
 * Names the place where strict JSON breaks, for settings warnings. `JSON.parse` does not always say
 * where ("Unexpected token '}'…"); this scanner walks the text the way a strict parser would and
 * reports the first problem with a line, a column and a plain description (trailing comma, comment…).
 * Only used after `JSON.parse` failed, so it favours clarity over speed.
 */
export interface JsonErrorLocation {
  offset: number;
  line: number;
  column: number;
  message: string;
}

class Scan {
  i = 0;
  constructor(readonly s: string) {}
  fail(message: string, at = this.i): never {
    throw Object.assign(new Error(message), { at });
  }
  ws(): void {
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.i++;
      else if (c === '/' && (this.s[this.i + 1] === '/' || this.s[this.i + 1] === '*')) this.fail('comments are not allowed in JSON');
      else return;
    }
  }
  value(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === undefined) this.fail('unexpected end of file');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.s.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    if (c === "'") this.fail('strings must use double quotes');
    this.fail(`unexpected ${describe(c)}`);
  }
  object(): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') return void this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === '}') this.fail('trailing comma before "}"');
      if (this.s[this.i] === "'") this.fail('strings must use double quotes');
      if (this.s[this.i] !== '"') this.fail(`expected a double-quoted property name, found ${describe(this.s[this.i])}`);
      this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail(`expected ":" after the property name, found ${describe(this.s[this.i])}`);
      this.i++;
      this.value();
      this.ws();
      const c = this.s[this.i];
      if (c === '}') return void this.i++;
      if (c !== ',') this.fail(`expected "," or "}" after a property value, found ${describe(c)}`);
      this.i++;
    }
  }
  array(): void {
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') return void this.i++;
    for (;;) {
      this.ws();
      if (this.s[this.i] === ']') this.fail('trailing comma before "]"');
      this.value();
      this.ws();
      const c = this.s[this.i];
      if (c === ']') return void this.i++;
      if (c !== ',') this.fail(`expected "," or "]" after an array element, found ${describe(c)}`);
      this.i++;
    }
  }
  string(): void {
    const start = this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i]!;
      if (c === '"') return void this.i++;
      if (c === '\\') {
        const e = this.s[this.i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.s.slice(this.i + 2, this.i + 6))) this.i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else this.fail('invalid escape sequence in a string');
      } else if (c < ' ') this.fail('unescaped control character (e.g. a raw newline) in a string');
      else this.i++;
    }
    this.fail('unterminated string', start);
  }
  number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.s.slice(this.i));
    if (!m) this.fail('invalid number');
    this.i += m[0].length;
  }
}

function describe(c: string | undefined): string {
  if (c === undefined) return 'the end of the file';
  return `"${c}"`;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

/** Where and why `text` is not strict JSON; undefined when it is valid. */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  const scan = new Scan(text);
  try {
    scan.value();
    scan.ws();
    if (scan.i < text.length) scan.fail(`unexpected ${describe(text[scan.i])} after the end of the JSON value`);
    return undefined;
  } catch (err) {
    const at = (err as { at?: number }).at ?? scan.i;
    return { offset: at, ...lineColumn(text, at), message: (err as Error).message };
  }
}
