// Types for mcp-ws-server.mjs.
export function startWsServer(opts?: { token?: string }): Promise<{
  url: string;
  upgrades: Array<{ authorization?: string; protocol?: string; team?: string }>;
  close(): Promise<void>;
}>;
