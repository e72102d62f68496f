import { describe, expect, it } from 'vitest';
import { findMentions } from '../../../src/cli/mentions.js';

describe('@ mentions', () => {
  it('are words after @ at a word start, quoted when they hold spaces, without trailing punctuation', () => {
    expect(findMentions('explain @src/a.ts, then @"docs/my notes.md". Mail me@example.com')).toEqual(['src/a.ts', 'docs/my notes.md']);
    expect(findMentions('@README.md')).toEqual(['README.md']);
    expect(findMentions('see (@lib/y.ts) and @lib/x.ts again')).toEqual(['lib/x.ts']); // "(" before @ is not a word start
    expect(findMentions('a @ b')).toEqual([]);
  });

  it('stop at ten per prompt', () => {
    const text = Array.from({ length: 15 }, (_, i) => `@f${i}.txt`).join(' ');
    expect(findMentions(text)).toHaveLength(10);
  });
});
