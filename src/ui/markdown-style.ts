/**
 * marked-terminal's renderer, shown as Claude Code shows Markdown: `-` bullets instead of `*`, and
 * the inline Markdown of tight list items (code spans, bold, links) rendered instead of printed as
 * typed (marked-terminal reads such an item's text token as plain text).
 */

type RenderFn = (this: { parser: { parseInline(tokens: unknown[]): string } }, ...args: unknown[]) => string;

export interface TerminalExtension {
  renderer: Record<string, RenderFn>;
}

export function claudeStyle<T extends TerminalExtension>(ext: T): T {
  const { list, text } = ext.renderer;
  if (!list || !text) return ext;
  // Lists inside a list item are rendered while their parent is: only the outermost one's bullets are replaced, once.
  let depth = 0;
  const renderer: Record<string, RenderFn> = {
    ...ext.renderer,
    text(token) {
      const tokens = token && typeof token === 'object' ? (token as { tokens?: unknown[] }).tokens : undefined;
      return tokens?.length ? this.parser.parseInline(tokens) : text.call(this, token);
    },
    list(token) {
      depth++;
      let out: string;
      try {
        out = list.call(this, token);
      } finally {
        depth--;
      }
      // A nested list leaves a line of only a colour reset between its items: dropped.
      return depth === 0 ? out.replace(/^((?: {2})*)\* /gm, '$1- ').replace(/\n {2,}(?:\x1b\[0m)+(?=\n)/g, '') : out;
    },
  };
  return { ...ext, renderer };
}
