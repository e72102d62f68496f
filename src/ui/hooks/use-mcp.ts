/**
 * The app's side of its MCP servers: the approval dialog for the first project server waiting for
 * an answer, a line in the transcript for each server that failed to start, the servers' prompts as
 * slash commands and their resources for `@` completion.
 */
import { useEffect, useMemo, useState } from 'react';
import { mcpProblems } from '../../core/setup/mcp-setup.js';
import type { McpServerResource, McpServerState } from '../../mcp/servers.js';
import type { McpApproval } from '../../settings/persist.js';
import type { SlashCommand } from '../commands/types.js';
import type { McpSession } from '../mcp-session.js';
import type { ElicitationAnswer } from '../../mcp/elicitation.js';
import type { ElicitationQueue, PendingElicitation } from '../elicitation-queue.js';

export interface McpApprovalPrompt {
  server: McpServerState;
  waiting: number;
  onAnswer: (answer: McpApproval) => void;
}

export function useMcpApprovals(mcp: McpSession | undefined, info: (text: string, tone?: 'info' | 'warning' | 'error') => void): McpApprovalPrompt | undefined {
  const [waiting, setWaiting] = useState<readonly string[]>(() => mcp?.needsApproval() ?? []);
  useEffect(() => {
    if (!mcp) return;
    let live = true;
    const reported = new Set<string>();
    const report = () => {
      if (!live) return;
      for (const p of mcpProblems(mcp.servers)) {
        if (reported.has(p)) continue;
        reported.add(p);
        info(p, 'warning');
      }
    };
    report();
    const off = mcp.onChange(report);
    return () => {
      live = false;
      off();
    };
  }, [mcp]);
  const first = waiting[0];
  const server = first !== undefined ? mcp?.servers.list().find((s) => s.name === first) : undefined;
  if (!mcp || !server) return undefined;
  return {
    server,
    waiting: waiting.length - 1,
    onAnswer: (answer) => {
      void mcp.answer(server.name, answer).then(({ error }) => {
        if (error) info(`The answer for MCP server "${server.name}" was not saved: ${error}`, 'warning');
      });
      setWaiting([...mcp.needsApproval()]);
    },
  };
}

/** Counts the servers' changes (connected, failed, a list changed), to recompute what depends on them. */
function useMcpVersion(mcp: McpSession | undefined): number {
  const [version, setVersion] = useState(0);
  useEffect(() => (mcp ? mcp.onChange(() => setVersion((v) => v + 1)) : undefined), [mcp]);
  return version;
}

/** The connected servers' prompts as slash commands; the list follows the servers as they connect. */
export function useMcpPromptCommands(mcp: McpSession | undefined): SlashCommand[] {
  const version = useMcpVersion(mcp);
  return useMemo(() => (mcp ? promptCommands(mcp) : []), [mcp, version]);
}

/** The connected servers' resources as last listed, for `@server:uri` completion. */
export function useMcpResources(mcp: McpSession | undefined): McpServerResource[] {
  const version = useMcpVersion(mcp);
  return useMemo(() => (mcp ? mcp.servers.resources() : []), [mcp, version]);
}

function promptCommands(mcp: McpSession): SlashCommand[] {
  return mcp.servers.prompts().map((p) => ({
    name: p.command,
    description: `${p.description} (MCP prompt)`,
    ...(p.argNames.length ? { argumentHint: p.argNames.map((n) => (p.required.includes(n) ? `<${n}>` : `[${n}]`)).join(' ') } : {}),
    source: 'mcp' as const,
    expands: true,
    async run(args: string) {
      await mcp.ready();
      const r = await mcp.servers.expandPrompt(`/${p.command} ${args}`);
      if (!r) return { kind: 'info' as const, tone: 'error' as const, text: `/${p.command} is not available: its server is not connected.` };
      return r.ok ? { kind: 'prompt' as const, text: r.text } : { kind: 'info' as const, tone: 'error' as const, text: r.message };
    },
  }));
}

export interface ElicitationPrompt extends PendingElicitation {
  waiting: number;
  onAnswer: (answer: ElicitationAnswer) => void;
}

/**
 * The first MCP server request for input waiting for the person. Open URL tries the browser and
 * leaves the URL in the transcript; a server saying the step at the URL finished is a line too.
 */
export function useElicitations(
  queue: ElicitationQueue | undefined,
  info: (text: string, tone?: 'info' | 'warning' | 'error') => void,
  openUrl: (url: string) => void,
): ElicitationPrompt | undefined {
  const [pending, setPending] = useState<readonly PendingElicitation[]>(() => queue?.list() ?? []);
  useEffect(() => {
    if (!queue) return;
    const off = queue.onChange(() => setPending(queue.list()));
    const offDone = queue.onCompleted((server) => info(`MCP server "${server}" says the step at the URL is done.`));
    return () => {
      off();
      offDone();
    };
  }, [queue]);
  const first = pending[0];
  if (!queue || !first) return undefined;
  return {
    ...first,
    waiting: pending.length - 1,
    onAnswer: (answer) => {
      const url = first.request.mode === 'url' ? first.request.url : undefined;
      if (url && answer.action === 'accept') {
        openUrl(url);
        info(`Opened ${url} for MCP server "${first.request.server}" (if no browser came up, open it yourself).`);
      }
      queue.answer(first.id, answer);
    },
  };
}
