/**
 * Checkpoints that cover the shell, through the built binary: a print-mode session whose Bash calls
 * edit with `sed -i`, create, delete, rename and chmod files and folders (600, 640, 700, setuid) and
 * change a nested repository's files, then `wicket rewind` puts back every byte and mode bit (the
 * nested repository's `.git` untouched), lists what it cannot put back, can itself be undone, and
 * leaves the project's own git index exactly as it was.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const nodeModules = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`node_modules/pkg/f${i}.js`, `module.exports = ${i};\n`]));

const t = useApiAndProject({
  files: {
    'a.txt': 'one\ntwo\nthree\n',
    'gone.txt': 'delete me\n',
    'old-name.txt': 'rename me\n',
    'run.sh': '#!/bin/sh\necho hi\n',
    'tool.sh': '#!/bin/sh\necho tool\n',
    'keep.bin': Buffer.from([0, 1, 2, 255, 254]),
    'secret.txt': 'not for everyone\n',
    'docs/guide.md': '# guide\n',
    'vendor/lib/index.js': 'export const v = 1;\n',
    '.env': 'TOKEN=small-ignored-file\n',
    '.gitignore': 'node_modules/\n.env\n',
    ...nodeModules,
  },
  settings: { permissions: { allow: ['Bash'] } },
});

/** Every file and folder under the project (but `.git` and node_modules/): its mode bits (statSync().mode) and a file's bytes, in base64. */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = { [`${rel}/`]: (lstatSync(path.join(dir, rel)).mode & 0o7777).toString(8) };
  for (const name of readdirSync(path.join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (r === '.git' || r === 'node_modules') continue;
    const st = lstatSync(path.join(dir, r));
    if (st.isDirectory()) Object.assign(out, tree(dir, r));
    else out[r] = `${(st.mode & 0o7777).toString(8)} ${readFileSync(path.join(dir, r)).toString('base64')}`;
  }
  return out;
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: t.project.dir, encoding: 'utf8', env: { ...process.env, HOME: t.project.home } });
}

/** The snapshots named in every shadow repository (their refs). */
function namedSnapshots(): string[] {
  const root = path.join(t.project.wicketHome, 'snapshots');
  if (!existsSync(root)) return [];
  const refs = (dir: string) =>
    execFileSync('git', ['--git-dir', path.join(root, dir), 'for-each-ref', '--format=%(refname)', 'refs/wicket'], { encoding: 'utf8' });
  return readdirSync(root)
    .filter((d) => existsSync(path.join(root, d, 'HEAD')))
    .flatMap((d) => refs(d).split('\n').filter(Boolean));
}

function shellSession(command: string): void {
  t.api.script(reply().toolUse('Bash', { command, description: 'change files' }), reply().text('Done.'));
}

const SHELL_CHANGES = [
  "sed -i 's/two/TWO/' a.txt",
  "printf 'made by the shell\\n' > created.txt",
  'rm gone.txt',
  'mv old-name.txt new-name.txt',
  'chmod 4755 run.sh', // setuid
  'chmod 600 secret.txt',
  'chmod 640 docs/guide.md',
  'chmod 700 docs',
  'chmod -x tool.sh',
  'rm .env',
  "printf 'X' > keep.bin",
  'mkdir -p sub/deep && echo deep > sub/deep/new.txt',
  'echo changed > node_modules/pkg/f0.js',
].join(' && ');

describe('wicket rewind after shell changes', () => {
  it('in a project that is not a git repository: restores every byte and mode bit the shell changed, lists what is outside, and the restore can be undone', async () => {
    execFileSync('chmod', ['755', t.project.path('tool.sh')]);
    // a nested repository (a vendored clone): its files are restored, its .git is left as it is
    const vendored = { cwd: t.project.path('vendor/lib') };
    execFileSync('git', ['init', '-q'], vendored);
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], vendored);
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'vendored'], vendored);
    execFileSync('chmod', ['600', t.project.path('a.txt')]);
    const before = tree(t.project.dir);
    const outside = path.join(t.project.home, 'outside.txt');
    shellSession(`${SHELL_CHANGES} && echo changed > vendor/lib/index.js && echo new > vendor/lib/added.js && echo out > ${outside}`);
    expectExit(await t.run(['-p', 'change things with the shell']), 0);
    const after = tree(t.project.dir);
    expect(after).not.toEqual(before);
    expect(t.project.exists('new-name.txt')).toBe(true);

    const list = expectExit(await t.run(['rewind', '--list']), 0);
    expect(list.stdout).toMatch(/1\. "change things with the shell" · 15 files would change/);

    // Without --yes: the preview, the diff, and nothing changed.
    const preview = expectExit(await t.run(['rewind', '--to', '1']), 0);
    for (const f of [
      'a.txt',
      'created.txt',
      'gone.txt',
      'new-name.txt',
      'old-name.txt',
      'run.sh',
      'tool.sh',
      '.env',
      'keep.bin',
      'sub/deep/new.txt',
      'vendor/lib/index.js',
      'vendor/lib/added.js',
    ])
      expect(preview.stdout).toContain(`  ${f}`);
    expect(preview.stdout).toContain('-TWO');
    // A mode alone changed: named with the mode then and now.
    expect(preview.stdout).toContain('  secret.txt mode 644 → 600\n');
    expect(preview.stdout).toContain('  docs/ mode 755 → 700\n');
    expect(preview.stdout).toContain('  docs/guide.md mode 644 → 640\n');
    expect(preview.stdout).toContain(`Not restorable (written outside the project by a command):\n  ${outside}`);
    expect(preview.stdout).not.toContain('node_modules');
    expect(tree(t.project.dir)).toEqual(after);

    const restored = expectExit(await t.run(['rewind', '--to', '1', '--code', '--yes']), 0);
    expect(tree(t.project.dir)).toEqual(before);
    expect(existsSync(t.project.path('sub'))).toBe(false);
    // Large ignored folders are not in snapshots; the file outside the project stays, and is named.
    expect(readFileSync(t.project.path('node_modules/pkg/f0.js'), 'utf8')).toBe('changed\n');
    expect(existsSync(outside)).toBe(true);
    expect(restored.stdout).toContain(`Not restorable (written outside the project by a command): ${outside}`);

    // The restore was snapshotted first: it is a rewind point of its own, and going back to it undoes it.
    const undo = /To undo this restore: wicket rewind --session (\S+) --to (\d+) --code --yes/.exec(restored.stdout);
    expect(undo?.[2]).toBe('2');
    expectExit(await t.run(['rewind', '--session', undo![1]!, '--to', undo![2]!, '--code', '--yes']), 0);
    expect(tree(t.project.dir)).toEqual(after);
  });

  it('in a git repository: the index and the staged changes are left exactly as they were; a moved HEAD needs --force', async () => {
    git(['init', '-q']);
    git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A']);
    git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start']);
    await t.project.write('a.txt', 'one\nstaged\n');
    git(['add', 'a.txt']);
    await t.project.write('a.txt', 'one\nstaged\nand not staged\n');
    await t.project.write('untracked.txt', 'new\n');
    const status = git(['status', '--porcelain']);
    const staged = git(['diff', '--cached']);
    const unstaged = git(['diff']);
    const before = tree(t.project.dir);

    // A turn whose calls only read names no snapshot (its scan, started while the command streamed, is dropped).
    shellSession('ls && cat a.txt');
    expectExit(await t.run(['-p', 'look around']), 0);
    expect(namedSnapshots()).toEqual([]);

    shellSession("sed -i 's/staged/SHELL/' a.txt && rm untracked.txt && echo more > created.txt");
    expectExit(await t.run(['-p', 'break the tree']), 0);
    expect(git(['status', '--porcelain'])).not.toBe(status);

    expectExit(await t.run(['rewind', '--to', '1', '--code', '--yes']), 0);
    expect(tree(t.project.dir)).toEqual(before);
    expect(git(['status', '--porcelain'])).toBe(status);
    expect(git(['diff', '--cached'])).toBe(staged);
    expect(git(['diff'])).toBe(unstaged);

    // A commit since the checkpoint: the restore refuses with the reason, unless forced.
    git(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'moved', '--allow-empty']);
    const refused = await t.run(['rewind', '--to', '1', '--code', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/git HEAD moved since then .*confirm to restore anyway \(--force\)/);
    expectExit(await t.run(['rewind', '--to', '1', '--code', '--yes', '--force']), 0);
  });
});
