/** /lsp: the session's language servers, where each comes from, and its state. */
import type { LspServerState } from '../../base/lsp.js';
import type { SlashCommand } from './types.js';

const MARK: Record<LspServerState['status'], string> = { running: '✓', starting: '…', idle: '·', missing: '✗', crashed: '✗', stopped: '-' };
const LABEL: Record<LspServerState['status'], string> = {
  running: 'running',
  starting: 'starting',
  idle: 'not started (starts on the first file it serves)',
  missing: 'not installed',
  crashed: 'crashed',
  stopped: 'stopped',
};

export function lspServerLines(servers: readonly LspServerState[]): string[] {
  return servers.map((s) => {
    const where = s.folder ? ` in ${s.folder}` : '';
    const why = s.error ? `: ${s.error}` : '';
    return `${MARK[s.status]} ${s.name} (${s.source}) ${s.command} · ${s.extensions.join(' ')} · ${LABEL[s.status]}${where}${why}`;
  });
}

export const lspCommand: SlashCommand = {
  name: 'lsp',
  description: 'Language servers: which serve which files, and their state',
  source: 'builtin',
  run(_args, s) {
    const lsp = s.options.lsp;
    if (!lsp) return { kind: 'info', text: 'Language servers are off in this session (WICKET_LSP=0 or --bare).' };
    const lines = lspServerLines(lsp.servers());
    return { kind: 'info', text: ['Language servers (configure more in .lsp.json or a plugin’s lspServers):', ...lines].join('\n') };
  },
};
