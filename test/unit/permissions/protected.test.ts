import { describe, expect, it } from 'vitest';
import { isProtectedPath, protectedReason } from '../../../src/permissions/protected.js';

describe('protected paths', () => {
  it.each([
    '/p/.git/config',
    '/p/.git',
    '/p/sub/.git/HEAD',
    '/p/.claude/settings.json',
    '/p/.claude/settings.local.json',
    '/p/.claude/hooks/check.sh',
    '/home/u/.claude/settings.json',
    '/p/.config/git/ignore',
    '/p/.vscode/tasks.json',
    '/p/.idea/x.xml',
    '/p/.husky/pre-commit',
    '/p/.cargo/config.toml',
    '/p/.devcontainer/devcontainer.json',
    '/p/.yarn/releases/yarn.cjs',
    '/p/.mvn/wrapper/maven-wrapper.properties',
    '/home/u/.bashrc',
    '/home/u/.zshrc',
    '/home/u/.profile',
    '/home/u/.gitconfig',
    '/p/.gitmodules',
    '/p/.envrc',
    '/p/.npmrc',
    '/p/.yarnrc.yml',
    '/p/.pnpmfile.cjs',
    '/p/bunfig.toml',
    '/p/.bazelrc',
    '/p/.pre-commit-config.yaml',
    '/p/lefthook.yaml',
    '/p/gradle/wrapper/gradle-wrapper.properties',
    '/p/.devcontainer.json',
    '/p/.ripgreprc',
    '/p/pyrightconfig.json',
    '/p/.mcp.json',
    '/home/u/.claude.json',
    '/p/.GIT/config',
    '/p/.BashRC',
  ])('%s is protected', (p) => {
    expect(isProtectedPath(p, {})).toBe(true);
  });

  it.each([
    '/p/src/git.ts',
    '/p/.claude/worktrees/feature/src/a.ts',
    '/p/.claude/agent-memory/rev/MEMORY.md',
    '/h/.claude/agent-memory-local/rev/notes.md',
    '/h/.claude/projects/-p/memory/MEMORY.md',
    '/h/.claude/projects/-p/memory/topics/testing.md',
    '/p/gitconfig',
    '/p/.github/workflows/ci.yml',
    '/p/config/git',
    '/p/.env',
    '/p/README.md',
    '/p/.gitignore',
  ])('%s is not protected', (p) => {
    expect(isProtectedPath(p, {})).toBe(false);
  });

  it('only the auto memory folder of .claude/projects/ is open, not the folder itself or its transcripts', () => {
    expect(isProtectedPath('/h/.claude/projects/-p/session.jsonl')).toBe(true);
    expect(isProtectedPath('/h/.claude/projects/-p/memory')).toBe(true);
    expect(isProtectedPath('/h/.claude/settings.json')).toBe(true);
  });

  it('a worktree keeps its own .git protected', () => {
    expect(isProtectedPath('/p/.claude/worktrees/w/.git/config')).toBe(true);
  });

  it('says why', () => {
    expect(protectedReason('/p/.git/config')).toBe('.git/ is a protected folder');
    expect(protectedReason('/h/.zshrc')).toBe('.zshrc is a protected file');
  });
});
