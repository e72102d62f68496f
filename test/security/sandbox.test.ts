/**
 * The sandbox obeys the permission rules: Read deny rules hide what they name from sandboxed
 * commands (every way of reading it: cat, python, cp, tar, grep -r, links, /proc aliases, `~`
 * through expanduser), Edit deny rules keep what they name from being changed, renamed or deleted,
 * and a rule the sandbox cannot expand safely stops the command with the reason. Each attack is
 * also run without the rule, in one control command, to prove it really reads the secret.
 * Skipped, with the reason, only when bubblewrap cannot run on this machine (CI installs it).
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSandbox, cannotSandboxReason, sandboxEnv, type SandboxEnv } from './sandbox-support.js';

if (!canSandbox) console.warn(`test/security/sandbox: skipped, bubblewrap cannot run here: ${cannotSandboxReason}`);

const SECRET = 'S3CR3T-9f2c';

const files = {
  'secret/key.txt': `KEY=${SECRET}-dir`,
  'Secret/upper.txt': `${SECRET}-case`,
  '.env': `${SECRET}-dotenv`,
  'app/deep/er/.env': `${SECRET}-deep`,
  'config/prod.key': `${SECRET}-glob`,
  'config/ok.txt': 'fine',
  'private.txt': `${SECRET}-denyread`,
  'notes.txt': 'harmless',
};
const home = { '.ssh/id_rsa': `${SECRET}-ssh`, 'other/.env': `${SECRET}-home` };
const deny = ['Read(./secret/**)', 'Read(~/.ssh/**)', 'Read(.env)', 'Read(./config/*.key)'];

/** [what, command, text that must not come back]. */
const attacks: Array<[string, string, string]> = [
  ['cat of a denied file', 'cat secret/key.txt', SECRET],
  ['python open()', `python3 -c "print(open('secret/key.txt').read())"`, SECRET],
  ['node readFileSync', `node -e "process.stdout.write(require('fs').readFileSync('secret/key.txt','utf8'))"`, SECRET],
  ['cp then cat', 'cp secret/key.txt copy.txt; cat copy.txt', SECRET],
  ['tar of the folder', 'tar cf - secret 2>/dev/null | tar xOf - 2>/dev/null', SECRET],
  ['base64', 'base64 secret/key.txt | base64 -d', SECRET],
  ['dd', 'dd if=secret/key.txt status=none', SECRET],
  ['the denied folder listed', 'ls -la secret', 'key.txt'],
  ['find -exec cat', 'find . -type f -exec cat {} +', SECRET],
  ['grep -r over the project', 'grep -r S3CR3T .', SECRET],
  ['~/.ssh through python expanduser', `python3 -c "import os; print(open(os.path.expanduser('~/.ssh/id_rsa')).read())"`, `${SECRET}-ssh`],
  ['cat ~/.ssh/id_rsa', 'cat ~/.ssh/id_rsa', `${SECRET}-ssh`],
  ['~/.ssh listed', 'ls -la ~/.ssh', 'id_rsa'],
  ['grep -r over home', 'grep -r S3CR3T ~', SECRET],
  ['a link made in the sandbox', 'ln -s secret/key.txt made-link; cat made-link', SECRET],
  ['a link to the file made before', 'cat link-to-key', SECRET],
  ['a link to the folder made before', 'cat link-to-dir/key.txt', SECRET],
  ['/proc/self/root', 'cat /proc/self/root$PWD/secret/key.txt', SECRET],
  ['/proc/self/cwd', 'cat /proc/self/cwd/secret/key.txt', SECRET],
  ['.. through the parent', 'cat ../project/secret/key.txt', SECRET],
  ['double slashes and ./', 'cat .//secret//./key.txt', SECRET],
  ['another letter case (Read rules ignore case)', 'cat Secret/upper.txt', `${SECRET}-case`],
  ['a loose pattern at the root', 'cat .env', `${SECRET}-dotenv`],
  ['a loose pattern deep in the project', 'cat app/deep/er/.env', `${SECRET}-deep`],
  ['a loose pattern in home', 'cat ~/other/.env', `${SECRET}-home`],
  ['a glob pattern', 'cat config/prod.key', `${SECRET}-glob`],
  ['sandbox.filesystem.denyRead', 'cat private.txt', `${SECRET}-denyread`],
  ['unmounting the mask (root keeps no CAP_SYS_ADMIN)', 'umount secret; umount -l secret; cat secret/key.txt', SECRET],
  ['remounting it read-write', 'mount -o remount,rw,bind secret; mount --bind /var secret; cat secret/key.txt', SECRET],
  [
    'a new user and mount namespace',
    '{ unshare -Urm sh -c "umount secret; cat secret/key.txt" || unshare -m sh -c "umount secret; cat secret/key.txt"; } || cat secret/key.txt',
    SECRET,
  ],
];

/** All attacks in one command, each in a subshell, each output between markers. */
const batch = attacks.map(([, cmd], i) => `echo "---${i}---"; (${cmd}) 2>&1`).join('; ') + `; echo "---${attacks.length}---"`;
const segment = (text: string, i: number) => text.split(`---${i}---`)[1]?.split(`---${i + 1}---`)[0];

describe.skipIf(!canSandbox)('Read deny rules inside the sandbox', () => {
  let env: SandboxEnv;
  let control: SandboxEnv;
  let guarded = '';
  let open = '';

  const prepare = (e: SandboxEnv) => {
    symlinkSync('secret/key.txt', e.file('link-to-key'));
    symlinkSync('secret', e.file('link-to-dir'));
  };

  beforeAll(async () => {
    env = await sandboxEnv({ files, home, deny, sandbox: { filesystem: { denyRead: ['./private.txt'] } } });
    control = await sandboxEnv({ files, home });
    prepare(env);
    prepare(control);
    const [a, b] = await Promise.all([env.sh(batch), control.sh(batch)]);
    guarded = a.text;
    open = b.text;
  }, 180_000);
  afterAll(() => {
    env?.cleanup();
    control?.cleanup();
  });

  it.each(attacks.map((a, i) => [...a, i] as const))('%s: hidden (and read without the rule)', (_what, command, leak, i) => {
    expect(segment(open, i), `without the rule, "${command}" should read it`).toContain(leak);
    const seen = segment(guarded, i);
    expect(seen, `the command ran: ${command}`).toBeDefined();
    expect(seen, `route: ${command}`).not.toContain(leak);
  });

  it.each([
    ['cat notes.txt', 'harmless'],
    ['cat config/ok.txt', 'fine'],
    ['ls config', 'ok.txt'],
    ['echo made > made.txt && cat made.txt', 'made'],
  ])('harmless: %s still works', async (command, expected) => {
    const r = await env.sh(command);
    expect(r.text).toContain(expected);
  });

  it('hides a file created after an earlier command (the masks are worked out for each command)', async () => {
    await env.sh('true');
    writeFileSync(env.file('config/later.key'), `${SECRET}-later`);
    const r = await env.sh('cat config/later.key; ls config');
    expect(r.text).not.toContain(`${SECRET}-later`);
    expect(r.text).toContain('ok.txt');
  });

  it('cannot write into a Read-denied folder', async () => {
    await env.sh('echo x > secret/planted.txt; cp notes.txt secret/');
    expect(existsSync(env.file('secret/planted.txt'))).toBe(false);
    expect(existsSync(env.file('secret/notes.txt'))).toBe(false);
    expect(readFileSync(env.file('secret/key.txt'), 'utf8')).toBe(`KEY=${SECRET}-dir`);
  });

  it('leaves no mount point behind in the project', async () => {
    const before = env.tree();
    await env.sh('true');
    expect(env.tree()).toEqual(before);
  });
});

describe.skipIf(!canSandbox)('root in the sandbox keeps no power over the sandbox', () => {
  it('cannot make device nodes, write kernel settings or remount the system read-write', async () => {
    const env = await sandboxEnv();
    try {
      // Writes the value already there: harmless should it ever succeed.
      const r = await env.sh(
        'mknod blk b 7 0; echo "mknod=$?"; v=$(cat /proc/sys/kernel/core_uses_pid); echo "$v" > /proc/sys/kernel/core_uses_pid; echo "sysctl=$?"; ' +
          'mount -o remount,rw /; echo "remount=$?"; touch /usr/wicket-probe; echo "usr=$?"',
      );
      expect(existsSync(env.file('blk'))).toBe(false);
      expect(r.text).toMatch(/mknod=[1-9]/);
      expect(r.text).toMatch(/sysctl=[1-9]/);
      expect(r.text).toMatch(/remount=[1-9]/);
      expect(r.text).toMatch(/usr=[1-9]/);
      expect(existsSync('/usr/wicket-probe')).toBe(false);
    } finally {
      env.cleanup();
    }
  });
});

describe.skipIf(!canSandbox)('rules the sandbox cannot honour stop the command, with the reason', () => {
  it.each([
    ['Read(//**/*.pem)', /from the root of the filesystem/],
    ['Read(./**)', /hides .*project.*nothing can run in the sandbox there/],
    ['Read(**)', /hides .*nothing can run in the sandbox there/],
  ])('%s', async (rule, reason) => {
    const env = await sandboxEnv({ deny: [rule], files: { 'victim.txt': 'v' } });
    try {
      const r = await env.sh('rm victim.txt; echo ran > ran.txt');
      expect(r.ok).toBe(false);
      expect(r.text).toMatch(reason);
      expect(r.text).toContain(rule);
      expect(existsSync(env.file('victim.txt'))).toBe(true);
      expect(existsSync(env.file('ran.txt'))).toBe(false);
    } finally {
      env.cleanup();
    }
  });

  it('Read(~/**) hides the home folder but lets commands run in a project outside it', async () => {
    const env = await sandboxEnv({ deny: ['Read(~/**)'], home: { 'notes.txt': `${SECRET}-home` }, files: { 'a.txt': 'in project' } });
    try {
      const r = await env.sh('cat a.txt; cat ~/notes.txt; echo ---; ls -a ~');
      expect(r.text).toContain('in project');
      expect(r.text).not.toContain(`${SECRET}-home`);
      expect(r.text.split('---')[1]).not.toContain('notes.txt');
    } finally {
      env.cleanup();
    }
  });
});

const editAttacks: Array<[string, string]> = [
  ['append to an Edit-denied file', 'echo evil >> locked/file.txt'],
  ['remove it', 'rm -f locked/file.txt'],
  ['rename it', 'mv locked/file.txt moved.txt'],
  ['rename its folder away and make it anew', 'mv locked locked2 && mkdir -p locked && echo evil > locked/file.txt'],
  ['overwrite a denied file', 'echo evil > frozen.txt'],
  ['sed -i', "sed -i 's/original/evil/' frozen.txt"],
  ['python open(w)', `python3 -c "open('frozen.txt','w').write('evil')"`],
  ['rename it and write a new one', 'mv frozen.txt f2.txt; echo evil > frozen.txt'],
  ['rename the folder holding it and make it anew', 'mv nested n2 && mkdir -p nested && echo evil > nested/deep.txt'],
  ['create a denied path that does not exist yet', 'mkdir -p dist && echo evil > dist/out.js'],
  ['sandbox.filesystem.denyWrite', 'echo evil > also.txt'],
  ['truncate', 'truncate -s 0 frozen.txt locked/file.txt'],
  ['through a link', 'ln -s frozen.txt l && echo evil > l'],
];

describe.skipIf(!canSandbox)('Edit deny rules inside the sandbox', () => {
  let env: SandboxEnv;
  const original = { 'locked/file.txt': 'original', 'frozen.txt': 'original', 'also.txt': 'original', 'nested/deep.txt': 'original' };

  beforeAll(async () => {
    env = await sandboxEnv({
      files: { ...original, 'free.txt': 'free' },
      deny: ['Edit(./locked/**)', 'Edit(./frozen.txt)', 'Edit(./dist/**)', 'Edit(./nested/deep.txt)'],
      sandbox: { filesystem: { denyWrite: ['./also.txt'] } },
    });
  });
  afterAll(() => env?.cleanup());

  it.each(editAttacks)('%s: refused, the file unchanged', async (_what, command) => {
    await env.sh(command);
    for (const [rel, content] of Object.entries(original)) expect(readFileSync(env.file(rel), 'utf8'), `${rel} after: ${command}`).toBe(content);
    expect(existsSync(env.file('dist/out.js'))).toBe(false);
  });

  it('writes elsewhere in the project still work, and no mount point is left behind', async () => {
    const r = await env.sh('echo changed > free.txt && mkdir -p build && echo x > build/a && cat free.txt');
    expect(r.text).toContain('changed');
    expect(readFileSync(env.file('build/a'), 'utf8')).toBe('x\n');
    expect(existsSync(env.file('dist'))).toBe(false);
  });
});

describe.skipIf(!canSandbox)('allowWrite cannot open the user configuration', () => {
  it('~/.claude and ~/.wicket stay read-only, and ~/.claude.json cannot be created, even with allowWrite: ["~"]', async () => {
    const env = await sandboxEnv({ sandbox: { filesystem: { allowWrite: ['~'] } }, home: { '.claude/settings.json': '{}', '.wicket/keep': 'k' } });
    try {
      await env.sh(
        'echo evil > ~/.claude/settings.json; echo evil > ~/.claude.json; mkdir -p ~/.claude/commands; echo evil > ~/.wicket/keep; echo ok > ~/free.txt',
      );
      expect(readFileSync(env.homeFile('.claude/settings.json'), 'utf8')).toBe('{}');
      expect(readFileSync(env.homeFile('.wicket/keep'), 'utf8')).toBe('k');
      expect(existsSync(env.homeFile('.claude.json'))).toBe(false);
      expect(existsSync(env.homeFile('.claude/commands'))).toBe(false);
      expect(readFileSync(env.homeFile('free.txt'), 'utf8')).toBe('ok\n');
    } finally {
      env.cleanup();
    }
  });

  it('an allowWrite folder inside ~/.claude stays read-only', async () => {
    const env = await sandboxEnv({ sandbox: { filesystem: { allowWrite: ['~/.claude/skills'] } }, home: { '.claude/skills/s/SKILL.md': 'orig' } });
    try {
      mkdirSync(env.homeFile('.claude/skills/t'), { recursive: true });
      await env.sh('echo evil > ~/.claude/skills/s/SKILL.md; echo evil > ~/.claude/skills/t/SKILL.md');
      expect(readFileSync(env.homeFile('.claude/skills/s/SKILL.md'), 'utf8')).toBe('orig');
      expect(existsSync(path.join(env.homeFile('.claude/skills/t'), 'SKILL.md'))).toBe(false);
    } finally {
      env.cleanup();
    }
  });
});
