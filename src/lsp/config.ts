/**
 * Which language servers a session has: the project's `.lsp.json` (only in a trusted workspace, since
 * it names commands to run), then the plugins' `lspServers`, then the common servers wicket knows,
 * used when found on the PATH (or in the project's node_modules/.bin). The first that serves a file's
 * extension serves the file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LspServerConfig } from '../base/lsp.js';
import { parseLspServers } from '../plugins/lsp.js';
import { errorMessage } from '../base/errors.js';

const ext = (list: string[], lang: string | ((e: string) => string)) => Object.fromEntries(list.map((e) => [e, typeof lang === 'string' ? lang : lang(e)]));

export const DEFAULT_SERVERS: readonly LspServerConfig[] = [
  {
    name: 'typescript',
    command: 'typescript-language-server',
    args: ['--stdio'],
    extensionToLanguage: {
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.tsx': 'typescriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
      '.jsx': 'javascriptreact',
    },
    source: 'default',
  },
  { name: 'python', command: 'pyright-langserver', args: ['--stdio'], extensionToLanguage: ext(['.py', '.pyi'], 'python'), source: 'default' },
  { name: 'go', command: 'gopls', args: [], extensionToLanguage: ext(['.go'], 'go'), source: 'default' },
  { name: 'rust', command: 'rust-analyzer', args: [], extensionToLanguage: ext(['.rs'], 'rust'), source: 'default' },
  {
    name: 'clangd',
    command: 'clangd',
    args: [],
    extensionToLanguage: ext(['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'], (e) => (e === '.c' || e === '.h' ? 'c' : 'cpp')),
    source: 'default',
  },
];

/** The project's `.lsp.json`: its servers and problems (a missing file is neither). */
export function projectLspServers(projectRoot: string, env: Record<string, string | undefined>): { servers: LspServerConfig[]; errors: string[] } {
  const file = path.join(projectRoot, '.lsp.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { servers: [], errors: [] };
  }
  try {
    const data = JSON.parse(text) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { servers: [], errors: [`${file}: must be a JSON object of language servers`] };
    const parsed = parseLspServers(data as Record<string, unknown>, { source: '.lsp.json', env });
    return { servers: parsed.servers, errors: parsed.errors.map((e) => `${file}: ${e}`) };
  } catch (err) {
    return { servers: [], errors: [`${file}: ${errorMessage(err)}`] };
  }
}

/** The server for a file: the first in `servers` that maps its extension. */
export function serverFor(servers: readonly LspServerConfig[], file: string): { config: LspServerConfig; languageId: string } | undefined {
  const e = path.extname(file).toLowerCase();
  if (!e) return undefined;
  for (const config of servers) {
    const languageId = config.extensionToLanguage[e];
    if (languageId) return { config, languageId };
  }
  return undefined;
}
