/**
 * What the sandbox batteries share: whether bubblewrap can run here (checked once), and a project
 * with a home folder where the sandbox really sees them. The sandbox gives every command a private
 * /tmp, so a home under /tmp would be invisible to it and a secret there unreadable for the wrong
 * reason: these folders live under /var/tmp instead, and every case also proves that, without the
 * rule, the same command does read the secret.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseRule } from '../../src/base/rule-parse.js';
import { emptyRules } from '../../src/base/permission-types.js';
import { bwrapAvailability } from '../../src/sandbox/index.js';
import { bashTool, initBashParser } from '../../src/tools/bash/index.js';
import { ReadState } from '../../src/base/read-state.js';
import type { SessionState, ToolContext } from '../../src/base/tool.js';
import { resultText, tryRunTool } from '../support/tool-context.js';

/** Where the batteries' folders go: outside /tmp, which the sandbox replaces by its own. */
export const VISIBLE_TMP = '/var/tmp';

const check = await bwrapAvailability();
export const canSandbox = check.ok;
export const cannotSandboxReason = check.ok ? '' : check.reason;

export interface SandboxEnvOptions {
  /** Deny rules, as in settings (`Read(./secret/**)`). */
  deny?: string[];
  /** The `sandbox` settings, over `{enabled: true}`. */
  sandbox?: Record<string, unknown>;
  /** Other settings keys (hooks…). */
  settings?: Record<string, unknown>;
  files?: Record<string, string>;
  home?: Record<string, string>;
  /** More environment for commands (over PATH, HOME, LANG). */
  env?: (home: string) => Record<string, string>;
}

export interface Sh {
  /** What the model would read (or the refusal's message). */
  text: string;
  ok: boolean;
  exitCode: number | null;
}

export interface SandboxEnv {
  root: string;
  project: string;
  home: string;
  ctx: ToolContext;
  state: SessionState;
  file(rel: string): string;
  homeFile(rel: string): string;
  write(rel: string, content: string): void;
  sh(command: string, extra?: Record<string, unknown>): Promise<Sh>;
  /** Every path in the project (links not followed), for "nothing was left behind". */
  tree(): string[];
  cleanup(): void;
}

let calls = 0;

export async function sandboxEnv(o: SandboxEnvOptions = {}): Promise<SandboxEnv> {
  await initBashParser();
  const root = realpathSync(mkdtempSync(path.join(VISIBLE_TMP, 'wicket-sec-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(project);
  mkdirSync(home);
  const put = (base: string, rel: string, content: string) => {
    const abs = path.join(base, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  };
  for (const [rel, content] of Object.entries(o.files ?? {})) put(project, rel, content);
  for (const [rel, content] of Object.entries(o.home ?? {})) put(home, rel, content);
  const rules = emptyRules();
  rules.deny = (o.deny ?? []).map((r) => parseRule(r, 'userSettings', path.join(home, '.claude', 'settings.json')));
  const state: SessionState = { cwd: project, readState: new ReadState() };
  const context = (): ToolContext => ({
    cwd: state.cwd,
    projectRoot: project,
    additionalDirs: [],
    homeDir: home,
    wicketHome: path.join(home, '.wicket'),
    sessionId: 'sandbox-battery',
    toolUseId: `toolu_sandbox_${++calls}`,
    signal: new AbortController().signal,
    permissionMode: 'bypassPermissions',
    readState: state.readState,
    env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', ...o.env?.(home) },
    rules,
    settings: { ...o.settings, sandbox: { enabled: true, ...o.sandbox } },
  });
  const env: SandboxEnv = {
    root,
    project,
    home,
    get ctx() {
      return context();
    },
    state,
    file: (rel) => path.join(project, rel),
    homeFile: (rel) => path.join(home, rel),
    write: (rel, content) => put(project, rel, content),
    async sh(command, extra = {}) {
      const r = await tryRunTool(bashTool, { command, timeout: 60_000, ...extra }, context(), state);
      if (!r.ok) return { text: r.message, ok: false, exitCode: null };
      return { text: resultText(r.modelResult), ok: true, exitCode: r.output.exitCode };
    },
    tree: () => walk(project),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  return env;
}

function walk(dir: string, base = dir): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const p = path.join(dir, n);
    out.push(path.relative(base, p));
    if (lstatSync(p).isDirectory()) out.push(...walk(p, base));
  }
  return out;
}
