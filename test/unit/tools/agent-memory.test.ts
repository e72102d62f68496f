/** An agent's persistent memory folder: where each scope keeps it, and what its prompt holds. */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentMemoryDir, ensureMemoryDir, memoryPrompt, memoryRules } from '../../../src/tools/agent/memory.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-memory-')));
  dirs.push(d);
  return d;
}

describe('agent memory', () => {
  const roots = { projectDir: '/proj', configDir: '/home/u/.claude', env: {} };

  it('lives where Claude Code keeps it, per scope; a plugin agent’s colon becomes a dash', () => {
    expect(agentMemoryDir('user', 'rev', roots)).toBe('/home/u/.claude/agent-memory/rev');
    expect(agentMemoryDir('project', 'rev', roots)).toBe('/proj/.claude/agent-memory/rev');
    expect(agentMemoryDir('local', 'plug:rev', roots)).toBe('/proj/.claude/agent-memory-local/plug-rev');
    expect(agentMemoryDir('user', 'rev', { ...roots, env: { CLAUDE_CODE_MEMORY_BASE_DIR: '/mem' } })).toBe('/mem/agent-memory/rev');
  });

  it('is made on first use; its prompt names the folder and holds the start of MEMORY.md', () => {
    const dir = path.join(tmp(), '.claude', 'agent-memory', 'rev');
    expect(ensureMemoryDir(dir)).toBeUndefined();
    expect(memoryPrompt(dir, 'project')).toContain(`You have a persistent memory folder: ${dir}`);
    expect(memoryPrompt(dir, 'project')).toContain('(empty: MEMORY.md does not exist yet)');
    writeFileSync(path.join(dir, 'MEMORY.md'), Array.from({ length: 250 }, (_, i) => `- note ${i + 1}`).join('\n'));
    const prompt = memoryPrompt(dir, 'project');
    expect(prompt).toContain('- note 200\n');
    expect(prompt).not.toContain('- note 201');
    expect(prompt).toContain('MEMORY.md goes on: only its first 200 lines');
  });

  it('a folder that cannot be made is a reason, not a crash', () => {
    const file = path.join(tmp(), 'plain-file');
    writeFileSync(file, 'x');
    expect(ensureMemoryDir(path.join(file, 'agent-memory', 'rev'))).toMatch(/could not be made: (ENOTDIR|EEXIST)/);
  });

  it('opens the folder to Read and Edit (which covers Write)', () => {
    expect(memoryRules('/h/.claude/agent-memory/rev').map((r) => r.raw)).toEqual([
      'Read(//h/.claude/agent-memory/rev/**)',
      'Edit(//h/.claude/agent-memory/rev/**)',
    ]);
  });
});
