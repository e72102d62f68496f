import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelClient } from '../../../src/api/model-client.js';
import { attachMentions, findMentions, resourceMention } from '../../../src/core/mentions.js';
import type { McpResourceContents } from '../../../src/mcp/types.js';
import { readResourceTool, type McpResourceSource } from '../../../src/mcp/resource-tools.js';
import { parseRule } from '../../../src/base/rule-parse.js';
import { emptyRules } from '../../../src/base/permission-types.js';
import { ReadState } from '../../../src/base/read-state.js';
import { agentOptions } from './fake-tools.js';

describe('@ mentions', () => {
  it('are words after @ at a word start, quoted when they hold spaces, without trailing punctuation', () => {
    expect(findMentions('explain @src/a.ts, then @"docs/my notes.md". Mail me@example.com')).toEqual(['src/a.ts', 'docs/my notes.md']);
    expect(findMentions('@README.md')).toEqual(['README.md']);
    expect(findMentions('see (@lib/y.ts) and @lib/x.ts again')).toEqual(['lib/x.ts']); // "(" before @ is not a word start
    expect(findMentions('a @ b')).toEqual([]);
  });

  it('stop at ten per prompt', () => {
    const text = Array.from({ length: 15 }, (_, i) => `@f${i}.txt`).join(' ');
    expect(findMentions(text)).toHaveLength(10);
  });

  it('find @server:uri resource mentions like any other', () => {
    expect(findMentions('Can you analyze @github:issue://123 and @docs:file://api/authentication?')).toEqual([
      'github:issue://123',
      'docs:file://api/authentication',
    ]);
  });
});

describe('resourceMention', () => {
  it('splits at the first colon: a connected server’s name, or any name before a URI with a scheme', () => {
    expect(resourceMention('github:repos/owner/repo/issues', ['github'])).toEqual({ server: 'github', uri: 'repos/owner/repo/issues' });
    expect(resourceMention('docs:file://api/auth', [])).toEqual({ server: 'docs', uri: 'file://api/auth' });
    expect(resourceMention('postgres:schema://users', ['other'])).toEqual({ server: 'postgres', uri: 'schema://users' });
  });

  it('is not one for file paths, a name that is not a server without a scheme, or half a mention', () => {
    expect(resourceMention('src/a.ts', ['src'])).toBeUndefined();
    expect(resourceMention('notes:today', ['github'])).toBeUndefined();
    expect(resourceMention('C:\\work\\a.ts', [])).toBeUndefined();
    expect(resourceMention('a/b:file://x', [])).toBeUndefined();
    expect(resourceMention('github:', ['github'])).toBeUndefined();
    expect(resourceMention(':file://x', [])).toBeUndefined();
  });
});

describe('attachMentions: MCP resources', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const contents: Record<string, McpResourceContents[]> = {
    'docs://readme': [{ uri: 'docs://readme', mimeType: 'text/plain', text: 'Read me.' }],
    'repos/o/r/issues': [{ uri: 'repos/o/r/issues', text: '#1 broken' }],
  };
  const source: McpResourceSource = {
    connectedServers: () => [
      { name: 'docs', hasResources: true },
      { name: 'plain', hasResources: false },
    ],
    listResources: async () => [],
    async readResource(_server, uri) {
      if (!contents[uri]) throw new Error('MCP error -32002: Resource not found');
      return contents[uri]!;
    },
  };
  const options = (withReader = true, rules = emptyRules()) => {
    dir = mkdtempSync(path.join(tmpdir(), 'wicket-mentions-'));
    return agentOptions({} as ModelClient, {
      tools: withReader ? [readResourceTool(source, { maxOutputChars: 1000 })] : [],
      state: { cwd: dir, readState: new ReadState() },
      projectRoot: dir,
      homeDir: dir,
      permission: { mode: 'default', rules },
    });
  };
  const texts = (blocks: Array<{ type: string; text?: string }>) => blocks.map((b) => b.text ?? `[${b.type}]`);

  it('attaches the resource’s contents after a heading, for @server:scheme://path and @server:path', async () => {
    const opts = options();
    expect(texts(await attachMentions('look at @docs:docs://readme and @docs:repos/o/r/issues.', opts))).toEqual([
      'Contents of the MCP resource @docs:docs://readme (attached by the person, already read; read it again only if it may have changed):',
      'Read me.',
      'Contents of the MCP resource @docs:repos/o/r/issues (attached by the person, already read; read it again only if it may have changed):',
      '#1 broken',
    ]);
  });

  it('an unknown server, a server without resources, a failed read or a denied server is a note, not a crash', async () => {
    const opts = options();
    expect(texts(await attachMentions('@nope:docs://readme @plain:x://y @docs:docs://missing', opts))).toEqual([
      '(@nope:docs://readme was not attached: Server "nope" not found. Available servers: docs, plain)',
      '(@plain:x://y was not attached: Server "plain" does not support resources)',
      '(@docs:docs://missing was not attached: Could not read docs://missing from "docs": Resource not found)',
    ]);
    const denied = options(true, { ...emptyRules(), deny: [parseRule('ReadMcpResourceTool', 'session')] });
    expect(texts(await attachMentions('@docs:docs://readme', denied))).toEqual([
      '(@docs:docs://readme was not attached: denied by the rule ReadMcpResourceTool)',
    ]);
  });

  it('without a server that offers resources, a mention with a scheme is a note and anything else stays text', async () => {
    const opts = options(false);
    expect(texts(await attachMentions('@docs:docs://readme and @notes:today', opts))).toEqual([
      '(@docs:docs://readme was not attached: no connected MCP server offers resources)',
    ]);
  });

  it('a file whose name looks like server:uri is still a file, unless the name before the colon is a server', async () => {
    const opts = options();
    writeFileSync(path.join(dir!, 'notes:today'), 'file text\n');
    const blocks = texts(await attachMentions('@notes:today', opts));
    expect(blocks[0]).toBe('Contents of @notes:today (attached by the person, already read):');
    expect(blocks[1]).toContain('file text');
  });
});
