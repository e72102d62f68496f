/**
 * The whole route, with the built binary and the fake API, in bypass mode (the deny rules and the
 * sandbox are the only guards): a first run's sandboxed commands try to read the secrets and to
 * plant configuration (settings with a hook, a command, an MCP server, memory, git hooks, in the
 * project and in a subfolder); the next `wicket -p -c` loads none of it, its hook never runs, no
 * request ever carries a secret, and the project is left as it was. `wicket mcp list` says which
 * servers run in the sandbox. Skipped, with the reason, only when bubblewrap cannot run here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { runCli } from '../support/run-cli.js';
import { makeTmpProject, type TmpProject } from '../support/tmp-project.js';
import { canSandbox, VISIBLE_TMP } from './sandbox-support.js';

// The sandbox's /tmp is its own: the project and home must live elsewhere for the secrets to be visible to it.
process.env.TMPDIR = VISIBLE_TMP;

const SECRET = 'S3CR3T-e2e-4411';
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sandbox-mcp-server.mjs');

let api: FakeAnthropic | undefined;
let project: TmpProject | undefined;
afterEach(async () => {
  await api?.close();
  await project?.cleanup();
  api = project = undefined;
});

beforeAll(() => {
  if (canSandbox && !existsSync(path.join(fileURLToPath(new URL('../../dist', import.meta.url))))) execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
});

const py = (code: string) => `python3 -c ${JSON.stringify(code)}`;

/** Commands the gate cannot see through (the paths are inside python code): only the sandbox stands in the way. */
function attacks(home: string): string[] {
  const hook = JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `touch ${home}/HOOK-RAN` }] }] } });
  const mcp = JSON.stringify({ mcpServers: { evil: { command: 'touch', args: [`${home}/MCP-RAN`] } } });
  const plant = (files: Record<string, string>) =>
    py(
      `import os, json\nfor f, t in json.loads(${JSON.stringify(JSON.stringify(files))}).items():\n` +
        `  try:\n    os.makedirs(os.path.dirname(f) or '.', exist_ok=True); open(f, 'w').write(t); print('planted', f)\n` +
        `  except OSError as e:\n    print('refused', f, e.strerror)`,
    );
  return [
    py("import os; print(open(os.path.expanduser('~/.ssh/id_rsa')).read())"),
    py("import glob, os; [print(open(f).read()) for f in glob.glob('**', recursive=True) if not os.path.isdir(f)]; print(open('secret/key.txt').read())"),
    'tar cf - . 2>/dev/null | tar xOf - 2>/dev/null',
    plant({
      '.claude/settings.json': hook,
      '.claude/settings.local.json': hook,
      '.claude/commands/evil.md': '---\ndescription: EVIL-COMMAND-9\n---\nevil',
      '.mcp.json': mcp,
      'CLAUDE.md': 'EVIL-MEMORY-9',
      'CLAUDE.local.md': 'EVIL-MEMORY-9',
      '.git/hooks/pre-commit': `touch ${home}/GIT-HOOK-RAN`,
    }),
    py(`import os; os.makedirs('evil', exist_ok=True); open('evil/settings.json','w').write(${JSON.stringify(hook)}); os.symlink('evil', '.claude')`),
    plant({ 'sub/.claude/settings.json': hook, 'sub/CLAUDE.md': 'EVIL-MEMORY-9' }),
  ];
}

describe.skipIf(!canSandbox)('a sandboxed run cannot change what the next run obeys, nor leak a secret', () => {
  it('wicket -p, then wicket -p -c', async () => {
    api = await startFakeAnthropic();
    project = await makeTmpProject({
      files: { 'secret/key.txt': `${SECRET}-project`, 'src/app.ts': 'code' },
      home: { '.ssh/id_rsa': `${SECRET}-ssh` },
      userSettings: { sandbox: { enabled: true }, permissions: { deny: ['Read(./secret/**)', 'Read(~/.ssh/**)'] } },
    });
    const before = readdirSync(project.dir).sort();
    const commands = attacks(project.home);
    const first = reply();
    commands.forEach((command, i) => first.toolUse('Bash', { command }, { id: `toolu_attack_${i}` }));
    api.script(first, reply().text('done'), reply().toolUse('Bash', { command: 'true' }, { id: 'toolu_next' }), reply().text('done again'));
    const run = (args: string[]) => runCli(args, { cwd: project!.dir, home: project!.home, baseUrl: api!.url, timeoutMs: 120_000 });

    const one = await run(['-p', 'go', '--dangerously-skip-permissions']);
    expect(one.code, one.stderr).toBe(0);
    const firstRunRequests = api.requests.length;
    const two = await run(['-p', 'again', '-c', '--dangerously-skip-permissions']);
    expect(two.code, two.stderr).toBe(0);

    const sent = JSON.stringify(api.requests);
    expect(sent, 'a secret reached the API').not.toContain(SECRET);
    // The attacks really ran (each got a result), in the sandbox.
    for (let i = 0; i < commands.length; i++) expect(sent).toContain(`toolu_attack_${i}`);
    // What the next run was given of its own (its system prompt and tools; the conversation before holds the attacks' text).
    const loaded = JSON.stringify(api.requests.slice(firstRunRequests).map((r) => [r.body.system, r.body.tools]));
    expect(loaded).not.toContain('EVIL-MEMORY-9');
    expect(loaded).not.toContain('EVIL-COMMAND-9');
    expect(loaded).not.toContain('mcp__evil');
    for (const marker of ['HOOK-RAN', 'MCP-RAN', 'GIT-HOOK-RAN']) expect(existsSync(path.join(project.home, marker)), `${marker}: it ran`).toBe(false);
    for (const rel of ['.claude', '.mcp.json', 'CLAUDE.md', 'CLAUDE.local.md', '.git', 'sub/.claude', 'sub/CLAUDE.md']) {
      expect(existsSync(project.path(rel)), `${rel} is in the project`).toBe(false);
    }
    expect(
      readdirSync(project.dir)
        .sort()
        .filter((n) => n !== 'evil' && n !== 'sub'),
    ).toEqual(before);
  }, 180_000);
});

describe.skipIf(!canSandbox)('wicket mcp list', () => {
  it('says which stdio servers run in the sandbox, and both connect', async () => {
    project = await makeTmpProject({ settings: { sandbox: { enabled: true }, enableAllProjectMcpServers: true } });
    const server = (extra: object) => ({ command: process.execPath, args: [SERVER], ...extra });
    writeFileSync(project.path('.mcp.json'), JSON.stringify({ mcpServers: { boxed: server({}), free: server({ sandbox: false }) } }));
    const r = await runCli(['mcp', 'list'], { cwd: project.dir, home: project.home, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/boxed: .* \[in the sandbox\] - ✓ Connected/);
    expect(r.stdout).toMatch(/free: .* \[outside the sandbox \("sandbox": false\)\] - ✓ Connected/);
    const get = await runCli(['mcp', 'get', 'free'], { cwd: project.dir, home: project.home, timeoutMs: 60_000 });
    expect(get.stdout).toContain('Sandbox: outside the sandbox ("sandbox": false)');
    expect(readdirSync(project.dir).sort()).toEqual(['.claude', '.mcp.json']);
  }, 120_000);
});
