import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it } from 'vitest';
import { Markdown } from '../../src/ui/Markdown.js';
import { liveSource, preloadMarkdown, renderMarkdown, splitCompleted, tailRows } from '../../src/ui/markdown-text.js';
import { makeTheme } from '../../src/ui/theme.js';

const plain = makeTheme({ NO_COLOR: '1' });
beforeAll(() => preloadMarkdown());

describe('Markdown', () => {
  it('renders headings, emphasis, lists, code and quotes for the terminal', () => {
    const md = '# Plan\n\nSome *em*, **bold** and `code`.\n\n- one\n- two\n\n1. first\n2. second\n\n```ts\nconst x: number = 1;\n```\n\n> a quote';
    const { lastFrame } = render(<Markdown text={md} width={60} theme={plain} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      "Plan

      Some em, bold and code.

        - one
        - two

        1. first
        2. second

        const x: number = 1;

        a quote"
    `);
  });

  it('tight list items render their inline Markdown; bullets are "-" at every level', () => {
    const md = '- run `npm test` and **ship**\n  - nested `x`\n  - two\n- [link](https://example.com)';
    const { lastFrame } = render(<Markdown text={md} width={60} theme={plain} />);
    expect(lastFrame()).not.toMatch(/[`*]/);
    expect(lastFrame()).toContain('- run npm test and ship');
    expect(lastFrame()).toMatch(/\n {4}- nested x\n {4}- two\n/);
  });

  it('wraps paragraphs to the width', () => {
    const out = renderMarkdown('word '.repeat(30).trim(), 30, plain);
    expect(out.split('\n').every((l) => l.length <= 30)).toBe(true);
  });

  it('highlights code when colors are on', () => {
    const colored = renderMarkdown('```js\nconst a = 1;\n```', 60, { ...makeTheme({}), noColor: false });
    expect(colored).toContain('const');
  });
});

describe('streaming helpers', () => {
  it('splits finished blocks at blank lines outside code fences', () => {
    expect(splitCompleted('one\n\ntwo')).toEqual({ done: 'one\n\n', rest: 'two' });
    expect(splitCompleted('```\na\n\nb')).toEqual({ done: '', rest: '```\na\n\nb' });
    expect(splitCompleted('```\na\n\nb\n```\n\nnext')).toEqual({ done: '```\na\n\nb\n```\n\n', rest: 'next' });
    expect(splitCompleted('\n\nstart')).toEqual({ done: '', rest: '\n\nstart' });
  });

  it('keeps only the tail of a long open code block, with its fence', () => {
    const src = `Intro\n\`\`\`py\n${Array.from({ length: 50 }, (_, i) => `line${i}`).join('\n')}`;
    const live = liveSource(src, 3);
    expect(live).toBe('```py\nline47\nline48\nline49');
  });

  it('cuts rendered text to the rows that fit', () => {
    expect(tailRows('a\nb\nc\nd', 2, 80)).toEqual({ text: 'c\nd', hidden: 2 });
    expect(tailRows('x'.repeat(100), 1, 80)).toEqual({ text: '', hidden: 1 });
  });
});
