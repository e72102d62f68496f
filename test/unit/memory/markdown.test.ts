/** The Markdown of instruction files: front matter, HTML comment blocks, `paths:` patterns and their matching. */
import { describe, expect, it } from 'vitest';
import { splitFrontMatter, stripCommentBlocks } from '../../../src/session/memory/markdown.js';
import { pathPatterns, pathsCover } from '../../../src/session/memory/paths-globs.js';

describe('front matter', () => {
  it('is taken off; its paths: become the rule’s patterns', () => {
    expect(splitFrontMatter('---\npaths:\n  - "src/**/*.ts"\n---\nTS rule\n')).toEqual({ content: 'TS rule\n', globs: ['src/**/*.ts'] });
    expect(splitFrontMatter('---\ntitle: x\n---\nbody')).toEqual({ content: 'body' });
    expect(splitFrontMatter('no front matter\n---\n')).toEqual({ content: 'no front matter\n---\n' });
    expect(splitFrontMatter('---\nunclosed')).toEqual({ content: '---\nunclosed' });
  });

  it('a paths: value that is not YAML still leaves the body', () => {
    expect(splitFrontMatter('---\npaths: [unclosed\n---\nbody\n').content).toBe('body\n');
  });
});

describe('HTML comment blocks', () => {
  it('go with their line; a comment inside a paragraph or a code block stays', () => {
    expect(stripCommentBlocks('a\n\n<!-- x -->\nb\n').content).toBe('a\n\nb\n');
    expect(stripCommentBlocks('text <!-- inline --> more\n').content).toBe('text <!-- inline --> more\n');
    expect(stripCommentBlocks('```\n<!-- code -->\n```\n').content).toBe('```\n<!-- code -->\n```\n');
  });

  it('text after a comment on its line is kept', () => {
    expect(stripCommentBlocks('<!-- note --> keep me\n').content).toBe(' keep me\n');
  });

  it('a file without <!-- is returned as it is, unlexed', () => {
    expect(stripCommentBlocks('plain\r\ntext')).toEqual({ content: 'plain\r\ntext' });
  });
});

describe('paths: patterns', () => {
  it('are a list or comma-separated text, braces expanded, a trailing /** dropped', () => {
    expect(pathPatterns(['src/**/*.ts', 'lib/*.js'])).toEqual(['src/**/*.ts', 'lib/*.js']);
    expect(pathPatterns('a/**, b/*.{ts,tsx}')).toEqual(['a', 'b/*.ts', 'b/*.tsx']);
    expect(pathPatterns('{x,y}/{1,2}.md')).toEqual(['x/1.md', 'x/2.md', 'y/1.md', 'y/2.md']);
  });

  it('"**" alone, or nothing, means the rule applies everywhere', () => {
    expect(pathPatterns('**')).toBeUndefined();
    expect(pathPatterns([])).toBeUndefined();
    expect(pathPatterns(42)).toBeUndefined();
  });

  it('match gitignore-style, relative to the rule’s folder; nothing outside it matches', () => {
    expect(pathsCover(['src/**/*.ts'], '/p/src/a/b.ts', '/p')).toBe(true);
    expect(pathsCover(['src/**/*.ts'], '/p/lib/b.ts', '/p')).toBe(false);
    expect(pathsCover(['docs/*.md'], '/p/docs/specs/a.md', '/p')).toBe(false);
    expect(pathsCover(['docs/specs'], '/p/docs/specs/a.md', '/p')).toBe(true);
    expect(pathsCover(['*.py'], '/p/deep/x.py', '/p')).toBe(true);
    expect(pathsCover(['**/*.py'], '/elsewhere/x.py', '/p')).toBe(false);
    expect(pathsCover(['**'], '/p', '/p')).toBe(false);
  });
});

describe('front matter read without the YAML library, and with it', () => {
  it('gives the same paths: either way', () => {
    const forms = [
      'paths: "src/**/*.ts"',
      'paths: src/**/*.ts',
      "paths: 'src/**/*.ts'",
      'paths: ["src/**/*.ts", "lib/*.js"]',
      'paths:\n  - "src/**/*.ts"\n  - lib/*.js',
      'description: Some rule — with a dash\npaths: ["docs/*.md", "README.md"]',
      'paths: [src/**/*.ts, "lib/*.js"]',
      'paths:\n\t- "src/**/*.ts"',
      'paths: 123',
      'paths:',
    ];
    const got = forms.map((f) => splitFrontMatter(`---\n${f}\n---\nbody\n`).globs);
    expect(got).toEqual([
      ['src/**/*.ts'],
      ['src/**/*.ts'],
      ['src/**/*.ts'],
      ['src/**/*.ts', 'lib/*.js'],
      ['src/**/*.ts', 'lib/*.js'],
      ['docs/*.md', 'README.md'],
      ['src/**/*.ts', 'lib/*.js'],
      ['src/**/*.ts'],
      undefined,
      undefined,
    ]);
  });

  it('front matter that is not YAML gives no paths: the rule applies everywhere, as in Claude Code', () => {
    expect(splitFrontMatter('---\ndescription: a: b\npaths: "src/**"\n---\nbody\n')).toEqual({ content: 'body\n' });
  });
});
