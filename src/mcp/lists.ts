/**
 * A server's tools, prompts and resources lists: every page of each (tools/list, prompts/list,
 * resources/list), and listed again when the server says one changed
 * (notifications/tools/list_changed and the like).
 */
import type { mcpSdk } from './sdk-lib.js';
import type { McpConnection, McpListKind, McpPromptInfo, McpResourceInfo, McpToolInfo } from './types.js';

type Sdk = Awaited<ReturnType<typeof mcpSdk>>;
type Client = InstanceType<Sdk['Client']>;
type Cursor = { cursor: string } | undefined;

export interface Lists {
  tools(): Promise<McpToolInfo[]>;
  prompts(): Promise<McpPromptInfo[]>;
  resources(): Promise<McpResourceInfo[]>;
}

/** At most this many items of one list. */
const MAX_ITEMS = 10_000;

/** Every page of a paginated list, up to 10,000 items. */
export async function listAll<T>(page: (params: Cursor) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor ? { cursor } : undefined);
    all.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor && all.length < MAX_ITEMS);
  return all.slice(0, MAX_ITEMS);
}

/** The lists of a connected client; an empty list for what the server does not offer. */
export function listers(client: Client, timeoutMs: number): Lists {
  const caps = client.getServerCapabilities();
  const o = { timeout: timeoutMs };
  const tools = async (p: Cursor) => {
    const r = await client.listTools(p, o);
    return { items: r.tools as McpToolInfo[], nextCursor: r.nextCursor };
  };
  const prompts = async (p: Cursor) => {
    const r = await client.listPrompts(p, o);
    return { items: r.prompts as McpPromptInfo[], nextCursor: r.nextCursor };
  };
  const resources = async (p: Cursor) => {
    const r = await client.listResources(p, o);
    return { items: r.resources as McpResourceInfo[], nextCursor: r.nextCursor };
  };
  return {
    tools: async () => (caps?.tools ? listAll(tools) : []),
    prompts: async () => (caps?.prompts ? listAll(prompts) : []),
    resources: async () => (caps?.resources ? listAll(resources) : []),
  };
}

/** How long a tool's answer waits for the lists it changed to be listed again. */
const SETTLE_MS = 5000;

/**
 * list_changed notifications: the list is listed again (one at a time, in order), put on the
 * connection, and the listeners are told. A list that cannot be listed keeps its old value.
 */
export class ListWatch {
  readonly listeners: Array<(kind: McpListKind) => void> = [];
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly lists: Lists) {}

  start(sdk: Sdk, client: Client, conn: Pick<McpConnection, McpListKind>): void {
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => this.refresh('tools', conn));
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () => this.refresh('prompts', conn));
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => this.refresh('resources', conn));
  }

  /** Resolves once the lists said to have changed so far are listed again (at most SETTLE_MS). */
  async settled(): Promise<void> {
    // A notification sent just before an answer is handled a tick after it arrives.
    await new Promise((r) => setImmediate(r));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, SETTLE_MS)));
    await Promise.race([this.pending, late]).finally(() => clearTimeout(timer));
  }

  refresh(kind: McpListKind, conn: Pick<McpConnection, McpListKind>): Promise<void> {
    this.pending = this.pending.then(async () => {
      try {
        if (kind === 'tools') conn.tools = await this.lists.tools();
        else if (kind === 'prompts') conn.prompts = await this.lists.prompts();
        else conn.resources = await this.lists.resources();
      } catch {
        return;
      }
      for (const l of this.listeners) l(kind);
    });
    return this.pending;
  }
}
