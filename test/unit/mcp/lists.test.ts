import { describe, expect, it } from 'vitest';
import type { McpConnection, McpListKind } from '../../../src/mcp/types.js';
import { listAll, ListWatch, type Lists } from '../../../src/mcp/lists.js';
import { mcpSdk } from '../../../src/mcp/sdk-lib.js';

describe('listAll', () => {
  it('follows nextCursor through every page', async () => {
    const asked: Array<string | undefined> = [];
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: 'p2' },
      p2: { items: [3], nextCursor: 'p3' },
      p3: { items: [4] },
    };
    const all = await listAll(async (p) => {
      asked.push(p?.cursor);
      return pages[p?.cursor ?? 'start']!;
    });
    expect(all).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([undefined, 'p2', 'p3']);
  });

  it('stops at 10,000 items even if the server never stops paging', async () => {
    let calls = 0;
    const all = await listAll(async () => ({ items: Array.from({ length: 3000 }, (_, i) => i), nextCursor: `c${++calls}` }));
    expect(all).toHaveLength(10_000);
    expect(calls).toBe(4);
  });
});

describe('ListWatch', () => {
  async function setup(lists: Partial<Lists>) {
    const sdk = await mcpSdk();
    const handlers = new Map<unknown, () => void>();
    const client = { setNotificationHandler: (schema: unknown, h: () => void) => void handlers.set(schema, h) };
    const conn: Pick<McpConnection, McpListKind> = { tools: [], prompts: [], resources: [] };
    const full: Lists = { tools: async () => [], prompts: async () => [], resources: async () => [], ...lists };
    const watch = new ListWatch(full);
    watch.start(sdk, client as never, conn);
    const notify = (kind: McpListKind) =>
      handlers.get(
        {
          tools: sdk.ToolListChangedNotificationSchema,
          prompts: sdk.PromptListChangedNotificationSchema,
          resources: sdk.ResourceListChangedNotificationSchema,
        }[kind],
      )!();
    return { watch, conn, notify };
  }

  it('lists a list again when the server says it changed, then tells the listeners; settled() waits for it', async () => {
    let round = 0;
    const { watch, conn, notify } = await setup({ tools: async () => [{ name: `t${++round}` }], resources: async () => [{ uri: 'x://1', name: '1' }] });
    const heard: McpListKind[] = [];
    watch.listeners.push((k) => heard.push(k));
    notify('tools');
    notify('resources');
    await watch.settled();
    expect(conn.tools).toEqual([{ name: 't1' }]);
    expect(conn.resources).toEqual([{ uri: 'x://1', name: '1' }]);
    expect(heard).toEqual(['tools', 'resources']);
  });

  it('keeps the old list when listing again fails, and tells no one', async () => {
    const { watch, conn, notify } = await setup({
      prompts: async () => {
        throw new Error('gone');
      },
    });
    conn.prompts = [{ name: 'old' }];
    const heard: McpListKind[] = [];
    watch.listeners.push((k) => heard.push(k));
    notify('prompts');
    await watch.settled();
    expect(conn.prompts).toEqual([{ name: 'old' }]);
    expect(heard).toEqual([]);
  });
});
