/** AGENTS.md as Claude Code 2.1 reads it: in place of CLAUDE.md by default, or beside it, or never. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsModeOf } from '../../../src/session/memory/agents-md.js';
import { discover, rel, tree } from './tree.js';

describe('AGENTS.md', () => {
  it('is read where no folder up to the working directory has a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md, with its imports', () => {
    const t = tree();
    t.write(t.configDir, { 'CLAUDE.md': 'user (does not count)' });
    t.write(t.project, {
      'AGENTS.md': 'agents @inc.md\n',
      'inc.md': 'included',
      '.claude/AGENTS.md': 'dot claude agents',
      'sub/AGENTS.md': 'only on touch (not read)',
    });
    const found = discover(t);
    expect(rel(t, found.files)).toEqual(['home/.claude/CLAUDE.md', 'work/proj/AGENTS.md', 'work/proj/inc.md', 'work/proj/.claude/AGENTS.md']);
    expect(found.files.slice(1).every((f) => f.type === 'Project' && f.agents)).toBe(true);
  });

  it('is not read when a CLAUDE.md exists in any folder up to the working directory', () => {
    const t = tree();
    t.write(path.dirname(t.project), { 'CLAUDE.md': 'parent claude' });
    t.write(t.project, { 'AGENTS.md': 'agents', '.claude/rules/r.md': 'rule' });
    expect(rel(t, discover(t).files)).toEqual(['work/CLAUDE.md', 'work/proj/.claude/rules/r.md']);
  });

  it('each folder’s AGENTS.md goes where a project file of that folder would: before deeper folders’ files, after its own rules, before auto memory', () => {
    const t = tree();
    t.write(path.dirname(t.project), { 'AGENTS.md': 'parent agents' });
    t.write(t.project, { 'AGENTS.md': 'project agents', '.claude/rules/r.md': 'rule' });
    const memory = path.join(t.root, 'mem');
    t.write(memory, { 'MEMORY.md': 'note' });
    expect(rel(t, discover(t, { autoMemoryDir: memory }).files)).toEqual([
      'work/AGENTS.md',
      'work/proj/.claude/rules/r.md',
      'work/proj/AGENTS.md',
      'mem/MEMORY.md',
    ]);
  });

  it('beside CLAUDE.md in claude-md-and-agents-md mode, not twice when CLAUDE.md imports it or says the same', () => {
    const t = tree();
    t.write(t.project, { 'CLAUDE.md': '@AGENTS.md\n', 'AGENTS.md': 'shared', 'pkg/AGENTS.md': 'pkg', 'pkg/CLAUDE.md': 'pkg' });
    const both = discover(t, { agentsMode: 'claude-md-and-agents-md', cwd: path.join(t.project, 'pkg') });
    expect(rel(t, both.files)).toEqual(['work/proj/CLAUDE.md', 'work/proj/AGENTS.md', 'work/proj/pkg/CLAUDE.md']);
  });

  it('claude-md reads none; managed-only keeps only the managed files and auto memory', () => {
    const t = tree();
    t.write(t.managed, { 'CLAUDE.md': 'policy' });
    t.write(t.configDir, { 'CLAUDE.md': 'user' });
    t.write(t.project, { 'AGENTS.md': 'agents' });
    expect(rel(t, discover(t, { agentsMode: 'claude-md' }).files)).toEqual(['managed/CLAUDE.md', 'home/.claude/CLAUDE.md']);
    expect(rel(t, discover(t, { agentsMode: 'managed-only' }).files)).toEqual(['managed/CLAUDE.md']);
  });

  it('the mode comes from pluginConfigs["agents-md@builtin"].options (its earlier names too); anything else is the default', () => {
    const mode = (options: object) => agentsModeOf({ pluginConfigs: { 'agents-md@builtin': { options } } });
    expect(agentsModeOf({})).toBe('claude-md-or-agents-md');
    expect(mode({ instructionFiles: 'claude-md-and-agents-md' })).toBe('claude-md-and-agents-md');
    expect(mode({ instructionFiles: 'nonsense' })).toBe('claude-md-or-agents-md');
    expect(mode({ projectInstructions: 'none' })).toBe('managed-only');
    expect(agentsModeOf({ pluginConfigs: 'broken' })).toBe('claude-md-or-agents-md');
  });
});
