/**
 * The set-up line that puts `wicket` on the PATH: `npm install -g .` from the clone (here into a
 * temporary prefix, so nothing of this machine changes), then `wicket --version` from another folder
 * finds the command and runs the built code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './tui-driver.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'wicket-install-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm install -g . puts wicket on the PATH', { timeout: 120_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('wicket --version runs from another folder', () => {
    const prefix = path.join(dir, 'prefix');
    const elsewhere = mkdtempSync(path.join(dir, 'elsewhere-'));
    // The build ran already (ensureBuilt); the install only links the clone in.
    execFileSync('npm', ['install', '-g', '.', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', '--offline'], {
      cwd: ROOT,
      stdio: 'pipe',
      env: { ...process.env, npm_config_cache: path.join(dir, 'npm-cache') },
    });
    const r = spawnSync('wicket', ['--version'], {
      cwd: elsewhere,
      encoding: 'utf8',
      env: { PATH: `${path.join(prefix, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: dir },
    });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(r.stdout).toContain(version);
  });
});
