/** The start's instruction text, as Claude Code words it. */
import { describe, expect, it } from 'vitest';
import { INSTRUCTIONS_HEADER, instructionsText } from '../../../src/session/memory/render.js';
import { SessionInstructions } from '../../../src/session/memory/session-instructions.js';
import { tree } from './tree.js';

describe('the start’s reminder', () => {
  it('names each file with what it is, its text trimmed', () => {
    const text = instructionsText([
      { path: '/etc/claude-code/CLAUDE.md', type: 'Managed', content: 'm\n' },
      { path: '/h/.claude/CLAUDE.md', type: 'User', content: '\nu\n' },
      { path: '/p/CLAUDE.md', type: 'Project', content: 'p' },
      { path: '/p/CLAUDE.local.md', type: 'Local', content: 'l' },
      { path: '/h/.claude/projects/-p/memory/MEMORY.md', type: 'AutoMem', content: 'a\u200b\u0007b' },
    ]);
    expect(text).toBe(
      [
        INSTRUCTIONS_HEADER,
        'Contents of /etc/claude-code/CLAUDE.md (organization-managed policy instructions):\n\nm',
        "Contents of /h/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nu",
        'Contents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\np',
        "Contents of /p/CLAUDE.local.md (user's private project instructions, not checked in):\n\nl",
        "Contents of /h/.claude/projects/-p/memory/MEMORY.md (user's auto-memory, persists across conversations):\n\nab",
      ].join('\n\n'),
    );
    expect(instructionsText([])).toBeUndefined();
  });

  it('is one reminder; the files a Read deny rule kept out are named in a second one; Explore and Plan get only managed files', () => {
    const t = tree();
    t.write(t.managed, { 'CLAUDE.md': 'policy' });
    t.write(t.project, { 'CLAUDE.md': 'see @secret.md', 'secret.md': 's' });
    const session = new SessionInstructions({
      cwd: t.project,
      home: t.home,
      configDir: t.configDir,
      managedDir: t.managed,
      deniedBy: (f) => (f.endsWith('secret.md') ? 'Read(./secret.md)' : undefined),
    });
    const [files, note] = session.conversation().startBlocks();
    expect(files).toMatch(/^<system-reminder>\nCodebase and user instructions are shown below\.[\s\S]*see @secret\.md\n<\/system-reminder>$/);
    expect(note).toBe(
      `<system-reminder>\nInstruction files not loaded (a Read deny rule covers each; do not try to read them):\n- ${t.project}/secret.md (imported by ${t.project}/CLAUDE.md)\n</system-reminder>`,
    );
    const omitted = session.conversation(true).startBlocks();
    expect(omitted).toHaveLength(1);
    expect(omitted[0]).toContain('policy');
    expect(omitted[0]).not.toContain('see @secret.md');
  });
});
