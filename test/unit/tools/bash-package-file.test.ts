/** Finding the parser's .wasm files without the exports-map resolver. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageFile } from '../../../src/tools/bash/parse.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('packageFile', () => {
  it('finds the same files require.resolve does', () => {
    const require = createRequire(import.meta.url);
    for (const [pkg, file] of [
      ['web-tree-sitter', 'web-tree-sitter.wasm'],
      ['tree-sitter-bash', 'tree-sitter-bash.wasm'],
    ] as const) {
      expect(packageFile(require, pkg, file)).toBe(require.resolve(`${pkg}/${file}`));
    }
  });

  it('takes the nearest copy of the package, and asks require.resolve when the file is not in it', () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-pkgfile-')));
    dirs.push(root);
    const near = path.join(root, 'app', 'node_modules', 'p');
    const far = path.join(root, 'node_modules', 'p');
    for (const d of [near, far]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, 'package.json'), '{"name":"p"}');
    }
    writeFileSync(path.join(near, 'a.wasm'), '');
    writeFileSync(path.join(far, 'b.wasm'), '');
    const require = createRequire(path.join(root, 'app', 'main.js'));
    expect(packageFile(require, 'p', 'a.wasm')).toBe(path.join(near, 'a.wasm'));
    // b.wasm is only in the farther copy: require.resolve decides, as it would without this shortcut.
    expect(packageFile(require, 'p', 'b.wasm')).toBe(require.resolve('p/b.wasm'));
    expect(() => packageFile(require, 'p', 'c.wasm')).toThrow();
  });
});
