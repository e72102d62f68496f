import { describe, expect, it } from 'vitest';
import type { SlashCommand } from '../../src/ui/commands/types.js';
import { hintsFor, resourceHints } from '../../src/ui/completions.js';
import type { McpServerResource } from '../../src/mcp/servers.js';

const resources: McpServerResource[] = [
  { server: 'docs', uri: 'file://api/auth', name: 'auth', description: 'Authentication' },
  { server: 'docs', uri: 'file://api/users', name: 'users' },
  { server: 'github', uri: 'issue://123', name: 'Issue 123', title: 'Crash on start' },
];
const command = (name: string): SlashCommand => ({ name, description: `the ${name} command`, source: 'builtin', run: () => ({ kind: 'info', text: '' }) });

describe('@ resource hints', () => {
  it('match the @ word at the end of the line anywhere in server, URI or name; Tab puts the mention in its place', () => {
    expect(resourceHints('compare @', resources).map((h) => h.label)).toEqual(['@docs:file://api/auth', '@docs:file://api/users', '@github:issue://123']);
    expect(resourceHints('compare @USERS', resources)).toEqual([
      { label: '@docs:file://api/users', description: 'users', text: 'compare @docs:file://api/users ' },
    ]);
    expect(resourceHints('@issue', resources)).toEqual([{ label: '@github:issue://123', description: 'Crash on start', text: '@github:issue://123 ' }]);
    expect(resourceHints('see @auth', resources)[0]!.description).toBe('auth · Authentication');
  });

  it('none when the line does not end in an @ word, or there are no resources', () => {
    expect(resourceHints('compare @auth and', resources)).toEqual([]);
    expect(resourceHints('mail me@docs', resources)).toEqual([]);
    expect(resourceHints('@', [])).toEqual([]);
    expect(resourceHints('@zzz', resources)).toEqual([]);
  });
});

describe('hintsFor', () => {
  it('gives slash commands while a command is typed, resources after an @', () => {
    const commands = [command('mcp'), command('model')];
    expect(hintsFor('/m', commands, resources).map((h) => [h.label, h.text])).toEqual([
      ['/mcp', '/mcp '],
      ['/model', '/model '],
    ]);
    expect(hintsFor('/mcp look at @gith', commands, resources).map((h) => h.text)).toEqual(['/mcp look at @github:issue://123 ']);
    expect(hintsFor('plain text', commands, resources)).toEqual([]);
  });
});
