/**
 * A language server describes types, and a type can be a value: `const KEY = "sk-…"` has the type
 * `"sk-…"`, which a diagnostic (`Type '"sk-…"' is not assignable to type '1'`) or a hover of any
 * name derived from it (`const k: "sk-…"`) shows, whichever file asks. While a Read deny rule holds,
 * the literal values in what the model is shown are replaced by `…`: a string or number literal
 * written inside a quoted type (TypeScript's `'"x"'`, `'42'`, Pyright's `"Literal['x', 3]"`), and in a
 * hover every quoted run and number after `:` or `=`.
 */

const INNER = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`/g;
const NUMBER = /-?\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?\b/g;

/** A diagnostic's message with the literal values inside its quoted types left out. */
export function redactDiagnostic(message: string): string {
  return message.replace(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"/g, (whole, single: string | undefined, double: string | undefined) => {
    const inner = single ?? double ?? '';
    const q = single !== undefined ? "'" : '"';
    if (NUMBER_ONLY.test(inner)) return `${q}…${q}`;
    const hidden = inner
      .replace(INNER, (m) => `${m[0]}…${m[0]}`)
      .replace(/Literal\[([^\]]*)\]/g, (_m, list: string) => `Literal[${list.replace(NUMBER, '…')}]`);
    return hidden === inner ? whole : `${q}${hidden}${q}`;
  });
}

const NUMBER_ONLY = /^-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?$/;

/** A hover's text with every quoted run and every number after `:`, `=` or `|` left out. */
export function redactHover(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      /^\s*```/.test(line) ? line : line.replace(INNER, (m) => `${m[0]}…${m[0]}`).replace(/([:=|]\s*)-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?n?\b/g, '$1…'),
    )
    .join('\n');
}
