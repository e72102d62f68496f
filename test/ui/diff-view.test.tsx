import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { countDiff, parseUnifiedDiff, unifiedDiff } from '../../src/ui/diff-lines.js';
import { DiffView } from '../../src/ui/DiffView.js';

const DIFF = [
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -8,4 +8,5 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '+const c = 4;',
  ' export { a };',
  '@@ -40,2 +41,2 @@',
  '-old();',
  '+fresh();',
  ' end();',
  '',
].join('\n');

describe('DiffView', () => {
  it('shows each line with its number, sign and a gap between hunks', () => {
    const { lastFrame } = render(<DiffView diff={DIFF} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      " 8   const a = 1;
       9 - const b = 2;
       9 + const b = 3;
      10 + const c = 4;
      11   export { a };
         ⋮
      40 - old();
      41 + fresh();
      42   end();"
    `);
  });

  it('cuts long diffs and says how much is left', () => {
    const { lastFrame } = render(<DiffView diff={DIFF} maxRows={3} />);
    expect(lastFrame()).toMatchInlineSnapshot(`
      " 8   const a = 1;
       9 - const b = 2;
       9 + const b = 3;
      … 6 more diff lines"
    `);
  });
});

describe('diff lines', () => {
  it('builds a unified diff of two texts, with line numbers from startLine', () => {
    const diff = unifiedDiff('a.txt', 'one\ntwo\nthree\n', 'one\nTWO\nthree\n', 10);
    expect(diff).toBe('--- a/a.txt\n+++ b/a.txt\n@@ -10,3 +10,3 @@\n one\n-two\n+TWO\n three\n');
    expect(countDiff(parseUnifiedDiff(diff))).toEqual({ added: 1, removed: 1 });
  });

  it('returns nothing for equal texts and ignores "no newline" markers', () => {
    expect(unifiedDiff('a', 'x', 'x')).toBe('');
    const rows = parseUnifiedDiff('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n');
    expect(rows).toEqual([
      { kind: 'remove', oldNo: 1, text: 'a' },
      { kind: 'add', newNo: 1, text: 'b' },
    ]);
  });
});
