import { describe, expect, it } from 'vitest';
import { fileUriPath, isPathKey, mcpInputPaths } from '../../../src/mcp/path-fields.js';

const paths = (input: unknown) => mcpInputPaths(input, '/work/p', '/home/u');

describe('the files an MCP call names', () => {
  it('reads path-named fields in every spelling, resolved against the cwd and home', () => {
    expect(paths({ path: 'a.txt', file_path: '/abs/b', filePath: '~/c', 'File-Name': '../d', other: 'e' })).toEqual([
      '/work/p/a.txt',
      '/abs/b',
      '/home/u/c',
      '/work/d',
    ]);
    expect(['path', 'paths', 'filename', 'FILE_PATH', 'source', 'destination', 'dest', 'src', 'directory'].every(isPathKey)).toBe(true);
    expect(['text', 'query', 'name', 'content'].some(isPathKey)).toBe(false);
  });
  it('walks nested objects and arrays, and finds file:// URIs under any key', () => {
    expect(paths({ a: { b: [{ paths: ['x', ['y']] }] }, note: 'file:///etc/passwd', uri: 'https://example.com' })).toEqual([
      '/work/p/x',
      '/work/p/y',
      '/etc/passwd',
    ]);
    expect(paths({ path: '', paths: [1, null, true] })).toEqual([]);
    expect(paths('file:///top')).toEqual(['/top']);
  });
  it('decodes file URIs as a file system would, failing closed on odd ones', () => {
    expect(fileUriPath('file:///a/b%20c')).toBe('/a/b c');
    expect(fileUriPath('FILE://localhost/a')).toBe('/a');
    expect(fileUriPath('file:/a/b')).toBe('/a/b');
    expect(fileUriPath('file:///a%2Fb/c')).toBe('/a/b/c');
    expect(fileUriPath('file://otherhost/a/b')).toBe('/a/b');
    expect(fileUriPath('https://x/y')).toBeUndefined();
  });
});
