/**
 * The session's language servers from its settings, environment and plugins. `WICKET_LSP=0` turns
 * them off (no LSP tool, no diagnostics); settings `lspDiagnostics: false` keeps the LSP tool but
 * appends no diagnostics to edits; the wait for diagnostics is `lspDiagnosticsTimeoutMs` (settings)
 * or WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS, 1500 ms by default. Nothing starts here: servers start on the
 * first file they serve.
 */
import type { LspServerConfig } from '../base/lsp.js';
import { DEFAULT_SERVERS, projectLspServers } from './config.js';
import { LspManager } from './manager.js';

export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 1500;

export interface LspSessionInput {
  projectRoot: string;
  additionalDirs: readonly string[];
  env: Record<string, string | undefined>;
  settings: Record<string, unknown>;
  /** The plugins' `lspServers`. */
  pluginServers: readonly LspServerConfig[];
  /** Whether the workspace is trusted: only then do its `.lsp.json` and node_modules/.bin count. */
  trusted: boolean;
}

export function lspEnabled(env: Record<string, string | undefined>): boolean {
  const v = env.WICKET_LSP?.trim().toLowerCase();
  return !(v === '0' || v === 'false' || v === 'off' || v === 'no');
}

export function diagnosticsTimeoutMs(env: Record<string, string | undefined>, settings: Record<string, unknown>): number {
  const fromEnv = Number(env.WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS);
  if (env.WICKET_LSP_DIAGNOSTICS_TIMEOUT_MS?.trim() && Number.isFinite(fromEnv) && fromEnv >= 0) return fromEnv;
  const fromSettings = settings.lspDiagnosticsTimeoutMs;
  if (typeof fromSettings === 'number' && Number.isFinite(fromSettings) && fromSettings >= 0) return fromSettings;
  return DEFAULT_DIAGNOSTICS_TIMEOUT_MS;
}

/** The session's servers, and problems to warn of; undefined when language servers are off. */
export function createLspSession(input: LspSessionInput): { lsp?: LspManager; warnings: string[] } {
  if (!lspEnabled(input.env)) return { warnings: [] };
  const warnings: string[] = [];
  let own: LspServerConfig[] = [];
  if (input.trusted) {
    const project = projectLspServers(input.projectRoot, input.env);
    own = project.servers;
    warnings.push(...project.errors);
  } else if (projectLspServers(input.projectRoot, input.env).servers.length) {
    warnings.push('.lsp.json: ignored, since this workspace has not been trusted (it names commands to run). Trust it with `wicket trust`.');
  }
  const lsp = new LspManager({
    servers: [...own, ...input.pluginServers, ...DEFAULT_SERVERS],
    projectRoot: input.projectRoot,
    additionalDirs: input.additionalDirs,
    env: input.env,
    trusted: input.trusted,
    diagnosticsTimeoutMs: diagnosticsTimeoutMs(input.env, input.settings),
    diagnostics: input.settings.lspDiagnostics !== false,
  });
  return { lsp, warnings };
}
