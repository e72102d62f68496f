/**
 * The bubblewrap sandbox: settings, decisions, and (where bwrap can run) real writes and network.
 * Tests that need bubblewrap are skipped with a message when it cannot run here; CI installs it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bwrapAvailability, decideSandbox, domainMatches, isExcludedCommand, readSandboxSettings, stopSandboxProxy } from '../../../src/sandbox/index.js';
import { bwrapArgs } from '../../../src/sandbox/bwrap.js';
import { bashTool, initBashParser } from '../../../src/tools/bash/index.js';
import { createToolEnv, resultText, runTool, tryRunTool, type ToolEnv } from '../../support/tool-context.js';

const ctx0 = { projectRoot: '/p', homeDir: '/h' };
const canRun = (await bwrapAvailability()).ok;
if (!canRun) console.warn(`test/unit/sandbox: bubblewrap tests skipped: ${((await bwrapAvailability()) as { reason: string }).reason}`);

describe('sandbox settings', () => {
  it('reads Claude Code keys with defaults, resolving paths against the project and home', () => {
    expect(readSandboxSettings({}, ctx0)).toMatchObject({
      enabled: false,
      failIfUnavailable: true,
      allowUnsandboxedCommands: true,
      autoAllowBashIfSandboxed: true,
      excludedCommands: [],
      allowWrite: [],
      allowedDomains: [],
    });
    const s = readSandboxSettings(
      {
        sandbox: {
          enabled: true,
          excludedCommands: ['docker'],
          filesystem: { allowWrite: ['~/.cache', './out', '//var/tmp', '/abs'], denyWrite: ['secrets'], denyRead: ['~/.ssh'] },
          network: { allowedDomains: ['Example.COM', '*.npmjs.org'], deniedDomains: ['bad.npmjs.org'] },
          allowUnsandboxedCommands: false,
        },
      },
      ctx0,
    );
    expect(s).toMatchObject({
      enabled: true,
      allowUnsandboxedCommands: false,
      allowWrite: ['/h/.cache', '/p/out', '/var/tmp', '/abs'],
      denyWrite: ['/p/secrets'],
      denyRead: ['/h/.ssh'],
      allowedDomains: ['example.com', '*.npmjs.org'],
    });
  });

  it('ignores values of the wrong type', () => {
    expect(readSandboxSettings({ sandbox: { enabled: 'yes', filesystem: { allowWrite: 'x' }, excludedCommands: [1, 'a'] } }, ctx0)).toMatchObject({
      enabled: false,
      allowWrite: [],
      excludedCommands: ['a'],
    });
  });

  it.each([
    ['example.com', 'example.com', true],
    ['EXAMPLE.com.', 'example.com', true],
    ['api.example.com', 'example.com', false],
    ['api.example.com', '*.example.com', true],
    ['a.b.example.com', '*.example.com', true],
    ['example.com', '*.example.com', false],
    ['evilexample.com', '*.example.com', false],
    ['anything.org', '*', true],
    ['example.com', 'example.com:443', true],
    ['example.com', 'example.com:8443', false],
  ])('host %s against %s → %s', (host, pattern, expected) => {
    expect(domainMatches(host, 443, pattern)).toBe(expected);
  });

  it('matches excluded commands by prefix with a word boundary', () => {
    expect(isExcludedCommand(['docker ps'], ['docker'])).toBe(true);
    expect(isExcludedCommand(['docker-compose up'], ['docker'])).toBe(false);
    expect(isExcludedCommand(['docker compose up -d'], ['docker compose:*'])).toBe(true);
    expect(isExcludedCommand(['ls', 'npm run e2e:chrome'], ['npm run e2e*'])).toBe(true);
  });

  it('builds a bubblewrap command line: read-only root, private /tmp, mounts from shallow to deep, no network', () => {
    const fs = { writable: ['/p/a/b', '/p'], readOnly: ['/p/.git/config', '/p/a'], hideDirs: ['/p/.claude'], hideFiles: ['/h/.ssh/id_rsa'] };
    const args = bwrapArgs({ cwd: '/p', fs, env: { TMPDIR: '/tmp' } });
    expect(args.slice(0, 7)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    expect(args).toContain('--unshare-net');
    const line = args.join(' ');
    expect(line).toContain('--ro-bind /proc/sys /proc/sys');
    expect(line).toContain('--tmpfs /tmp');
    expect(line).toMatch(/--new-session --cap-drop ALL/);
    if (process.getuid?.() === 0) expect(line).not.toContain('CAP_SYS_ADMIN');
    expect(line).toMatch(
      /--bind \/p \/p .*--ro-bind \/p\/a \/p\/a .*--tmpfs \/p\/.claude --remount-ro \/p\/.claude .*--bind \/p\/a\/b \/p\/a\/b .*--ro-bind \/p\/.git\/config/,
    );
    expect(line).toMatch(/--ro-bind \S+\/empty \/h\/.ssh\/id_rsa/);
    expect(args.slice(-3)).toEqual(['--chdir', '/p', '--']);
  });
});

describe('sandbox decisions', () => {
  const on = (extra: Record<string, unknown> = {}) => readSandboxSettings({ sandbox: { enabled: true, ...extra } }, ctx0);

  it('is off unless enabled', async () => {
    expect(await decideSandbox(readSandboxSettings({}, ctx0), { commands: ['ls'] })).toEqual({ kind: 'off' });
  });

  it('lets a call leave the sandbox only when settings allow it', async () => {
    expect(await decideSandbox(on(), { dangerouslyDisableSandbox: true, commands: ['ls'] })).toMatchObject({ kind: 'unsandboxed' });
    expect(await decideSandbox(on({ allowUnsandboxedCommands: false }), { dangerouslyDisableSandbox: true, commands: ['ls'] })).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('allowUnsandboxedCommands'),
    });
  });

  it('runs excluded commands outside', async () => {
    expect(await decideSandbox(on({ excludedCommands: ['docker'] }), { commands: ['docker ps'] })).toMatchObject({ kind: 'unsandboxed' });
  });

  it('refuses to run when bubblewrap is missing, unless failIfUnavailable is false', async () => {
    const missing = { bwrapPath: '/nonexistent/bwrap' };
    const refused = await decideSandbox(on(missing), { commands: ['ls'] });
    expect(refused).toMatchObject({ kind: 'refused' });
    if (refused.kind === 'refused') expect(refused.reason).toMatch(/cannot start: bubblewrap \(\/nonexistent\/bwrap\) is not installed.*Nothing was run/);
    expect(await decideSandbox(on({ ...missing, failIfUnavailable: false }), { commands: ['ls'] })).toMatchObject({ kind: 'unsandboxed' });
  });

  it('Bash refuses at validation when the sandbox cannot start', async () => {
    await initBashParser();
    const env = createToolEnv({ settings: { sandbox: { enabled: true, bwrapPath: '/nonexistent/bwrap' } } });
    try {
      const r = await tryRunTool(bashTool, { command: 'touch x' }, env.ctx);
      expect(r).toMatchObject({ ok: false, stage: 'validate' });
      expect(existsSync(env.file('x'))).toBe(false);
    } finally {
      env.cleanup();
    }
  });
});

describe.skipIf(!canRun)('commands in the sandbox (bubblewrap)', () => {
  let env: ToolEnv;
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];

  beforeAll(async () => {
    await initBashParser();
    server = http.createServer((req, res) => {
      hits.push(`${req.headers.host} ${req.url}`);
      res.end('hello from outside\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.close();
    await stopSandboxProxy();
  });
  afterEach(() => env?.cleanup());

  function sandboxed(sandbox: Record<string, unknown> = {}): ToolEnv {
    env = createToolEnv({ env: { PATH: process.env.PATH }, settings: { sandbox: { enabled: true, ...sandbox } } });
    env.ctx.env.HOME = env.home;
    return env;
  }

  async function sh(command: string, extra: Record<string, unknown> = {}) {
    const r = await runTool(bashTool, { command, ...extra }, env.nextCall(), env.state);
    return { text: resultText(r.modelResult), output: r.output };
  }

  it('writes inside the project; not in home or elsewhere', async () => {
    sandboxed();
    const probe = `/usr/local/wicket-sandbox-probe-${process.pid}`;
    const system = await sh(`touch ${probe}; echo status $?`);
    expect(system.text).toMatch(/Read-only file system\nstatus 1/);
    expect(existsSync(probe)).toBe(false);
    const r = await sh(`touch inside && touch ${env.home}/outside; echo status $?`);
    expect(r.output.sandboxed).toBe(true);
    expect(existsSync(env.file('inside'))).toBe(true);
    expect(existsSync(path.join(env.home, 'outside'))).toBe(false);
    expect(r.text).toMatch(/cannot touch .*outside.*\nstatus 1/);
  });

  it('gives the command a private /tmp', async () => {
    sandboxed();
    const marker = `wicket-sandbox-${process.pid}-${Date.now()}`;
    await sh(`echo x > /tmp/${marker} && cat /tmp/${marker}`);
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
  });

  it('keeps allowWrite paths writable and denyWrite, protected and denyRead paths closed', async () => {
    const extra = path.join(createToolEnv().root, 'extra');
    mkdirSync(extra);
    sandboxed({ filesystem: { allowWrite: [extra], denyWrite: ['./locked'], denyRead: ['./secret.txt'] } });
    mkdirSync(env.file('locked'));
    mkdirSync(env.file('.git/hooks'), { recursive: true });
    writeFileSync(env.file('secret.txt'), 'TOKEN=1');
    const r = await sh(`touch ${extra}/ok; touch locked/no; touch .git/hooks/pre-commit; cat secret.txt; echo end`);
    expect(existsSync(path.join(extra, 'ok'))).toBe(true);
    expect(existsSync(env.file('locked/no'))).toBe(false);
    expect(existsSync(env.file('.git/hooks/pre-commit'))).toBe(false);
    expect(r.text).not.toContain('TOKEN');
    expect(readFileSync(env.file('secret.txt'), 'utf8')).toBe('TOKEN=1');
  });

  it('has no network at all by default', async () => {
    sandboxed();
    const r = await sh(`curl -sS -m 3 http://127.0.0.2:${port}/ || echo failed`);
    expect(r.text).toContain('failed');
    expect(hits).toEqual([]);
  });

  it('reaches allowed domains through the proxy, and only those', async () => {
    sandboxed({ network: { allowedDomains: ['127.0.0.2'] } });
    const ok = await sh(`curl -sS -m 30 http://127.0.0.2:${port}/allowed`);
    expect(ok.text).toBe('hello from outside');
    expect(hits).toEqual([`127.0.0.2:${port} /allowed`]);
    const denied = await sh(`curl -sS -m 30 -w '%{http_code}' http://127.0.0.3:${port}/denied`);
    expect(denied.text).toContain('127.0.0.3 is not in sandbox.network.allowedDomains');
    expect(denied.text).toContain('403');
    const tunnel = await sh(`curl -sS -m 30 -p http://127.0.0.3:${port}/ 2>&1; echo`);
    expect(tunnel.text).toMatch(/403/);
    expect(tunnel.text).toContain('The sandbox blocked network access to 127.0.0.3');
    const direct = await sh(`curl -sS -m 3 --noproxy '*' http://127.0.0.2:${port}/direct || echo failed`);
    expect(direct.text).toContain('failed');
    expect(hits).toEqual([`127.0.0.2:${port} /allowed`]);
  });

  it('runs outside the sandbox with dangerouslyDisableSandbox, and for excluded commands', async () => {
    sandboxed({ excludedCommands: ['touch'] });
    await sh(`touch ${env.home}/excluded`);
    expect(existsSync(path.join(env.home, 'excluded'))).toBe(true);
    const r = await sh(`echo x > ${env.home}/escape`, { dangerouslyDisableSandbox: true });
    expect(r.output.sandboxed).toBe(false);
    expect(existsSync(path.join(env.home, 'escape'))).toBe(true);
  });

  it('approves sandboxed commands without asking, but not unreadable ones', async () => {
    sandboxed();
    expect(await bashTool.checkPermissions({ command: 'npm test' }, env.ctx)).toMatchObject({ behavior: 'allow', reason: 'runs in the sandbox' });
    expect(await bashTool.checkPermissions({ command: '$X' }, env.ctx)).toMatchObject({ behavior: 'ask' });
    expect(await bashTool.checkPermissions({ command: 'npm test', dangerouslyDisableSandbox: true }, env.ctx)).toMatchObject({ behavior: 'ask' });
  });

  it('keeps process-group handling inside the sandbox: a timeout stops everything', async () => {
    sandboxed();
    const t0 = Date.now();
    const r = await sh('trap "" TERM; sleep 60 & sleep 60; echo never', { timeout: 500 });
    expect(r.output.timedOut).toBe(true);
    // Far below the 60 s the commands would take; a loaded machine may be slow to start the sandbox.
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.text).not.toContain('never');
  });

  it('carries a cd over inside the sandbox', async () => {
    sandboxed();
    mkdirSync(env.file('sub'));
    await sh('cd sub');
    expect(env.state.cwd).toBe(env.file('sub'));
  });
});
