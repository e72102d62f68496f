import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../../src/session/system-prompt.js';

function tree() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-sp-')));
  const home = path.join(root, 'home');
  const proj = path.join(root, 'proj');
  const sub = path.join(proj, 'pkg', 'app');
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(path.join(proj, '.git'), { recursive: true });
  mkdirSync(path.join(proj, '.claude'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  writeFileSync(path.join(home, '.claude', 'CLAUDE.md'), 'user memory');
  writeFileSync(path.join(proj, 'CLAUDE.md'), 'project memory <!-- hidden comment -->');
  writeFileSync(path.join(proj, '.claude', 'CLAUDE.md'), 'dot-claude memory');
  writeFileSync(path.join(proj, 'CLAUDE.local.md'), 'local memory');
  writeFileSync(path.join(sub, 'CLAUDE.md'), 'nested memory');
  return { home, proj, sub, configDir: path.join(home, '.claude') };
}

describe('system prompt', () => {
  it('includes cwd, platform, date and git facts; the instruction files are not in it', () => {
    const t = tree();
    const [block] = buildSystemPrompt({ cwd: t.proj, projectRoot: t.proj, homeDir: t.home, configDir: t.configDir, now: new Date('2026-01-02T03:04:05Z') });
    expect(block!.text).toContain(`Working directory: ${t.proj}`);
    expect(block!.text).toContain("Today's date: 2026-01-02");
    expect(block!.text).toContain('Platform: ');
    expect(block!.text).not.toContain('project memory');
  });

  it('says where auto memory is kept when it is on', () => {
    const t = tree();
    const dir = path.join(t.home, '.claude', 'projects', 'p', 'memory');
    const [on] = buildSystemPrompt({ cwd: t.proj, projectRoot: t.proj, homeDir: t.home, configDir: t.configDir, autoMemoryDir: dir });
    expect(on!.text).toContain(`# Memory\nYou have a persistent memory folder for this project: ${dir}`);
    // The front matter Claude Code's memory files have: the type under `metadata`.
    expect(on!.text).toContain('and `type` under `metadata`: user, feedback, project or reference');
    const [off] = buildSystemPrompt({ cwd: t.proj, projectRoot: t.proj, homeDir: t.home, configDir: t.configDir });
    expect(off!.text).not.toContain('# Memory');
  });

  it('--system-prompt replaces the base text and --append-system-prompt adds to it', () => {
    const t = tree();
    const [block] = buildSystemPrompt({
      cwd: t.proj,
      projectRoot: t.proj,
      homeDir: t.home,
      configDir: t.configDir,
      systemPrompt: 'BE TERSE',
      appendSystemPrompt: 'ALSO THIS',
    });
    expect(block!.text.startsWith('BE TERSE')).toBe(true);
    expect(block!.text).not.toContain('You are wicket');
    expect(block!.text.trimEnd().endsWith('ALSO THIS')).toBe(true);
  });

  it('settings language asks for answers in that language', () => {
    const t = tree();
    const [block] = buildSystemPrompt({
      cwd: t.proj,
      projectRoot: t.proj,
      homeDir: t.home,
      configDir: t.configDir,
      language: 'japanese',
      appendSystemPrompt: 'LAST',
    });
    expect(block!.text).toContain('Always respond to the user in japanese. Code, commands, file contents and identifiers stay as they are.\n\nLAST');
  });

  it('names the git branch and a short status in a repository', async () => {
    const { execFileSync } = await import('node:child_process');
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-git-')));
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: dir });
    writeFileSync(path.join(dir, 'new.txt'), 'x');
    const [block] = buildSystemPrompt({ cwd: dir, projectRoot: dir, homeDir: dir, configDir: path.join(dir, 'none') });
    expect(block!.text).toContain('Is a git repository: yes');
    expect(block!.text).toContain('Git branch: trunk');
    expect(block!.text).toContain('?? new.txt');
  });
});

describe('the git status leaves out what the Read deny rules hide', () => {
  it('drops hidden entries, renamed ones when either side is hidden, and C-quoted names', () => {
    const status = [' M secret/zq9-key.txt', '?? secret/', '?? public/ok.txt', 'R  old.txt -> "caf\\303\\251/zq9.txt"', 'R  a.txt -> b.txt'].join('\n');
    const hidden = (p: string) => p.startsWith('/p/secret') || p.normalize('NFC').startsWith('/p/caf\u00e9');
    const [block] = buildSystemPrompt({
      cwd: '/p',
      projectRoot: '/p',
      homeDir: '/h',
      configDir: '/h/.claude',
      git: { branch: 'main', status },
      hidden,
    });
    expect(block!.text).toContain('Git status:\n?? public/ok.txt\nR  a.txt -> b.txt\n</env>');
    expect(block!.text).not.toMatch(/zq9|secret/);
    const [all] = buildSystemPrompt({
      cwd: '/p',
      projectRoot: '/p',
      homeDir: '/h',
      configDir: '/h/.claude',
      git: { branch: 'main', status: ' M secret/x' },
      hidden,
    });
    expect(all!.text).toContain('Git status:\n(clean)');
  });
});
