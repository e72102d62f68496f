/** Builds a real hook gate from a `hooks` settings value, in a temporary project. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseHooksConfig } from '../../../src/settings/hooks.js';
import { createHooks, type HooksContext, type SettingsHooks } from '../../../src/hooks/create.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/hooks');

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

export function tempDir(prefix = 'wicket-hooks-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface Built {
  hooks: SettingsHooks;
  warnings: string[];
  projectRoot: string;
}

export function buildHooks(hooksValue: unknown, opts: Partial<HooksContext> & { settingsEnv?: Record<string, string> } = {}): Built {
  const projectRoot = opts.projectRoot ?? tempDir();
  const parsed = parseHooksConfig(hooksValue, 'projectSettings', path.join(projectRoot, '.claude/settings.json'), 'settings.json');
  const hooks = createHooks(
    { hooks: parsed.groups, env: opts.settingsEnv ?? {} },
    {
      sessionId: 'sess-1',
      cwd: projectRoot,
      projectRoot,
      transcriptPath: path.join(projectRoot, 'transcript.jsonl'),
      getPermissionMode: () => 'default',
      env: { ...process.env },
      ...opts,
    },
  );
  return { hooks, warnings: parsed.warnings, projectRoot };
}

/** `{ PreToolUse: [{ matcher, hooks: [{type:'command', command}] }] }` for one command. */
export function one(event: string, command: string, extra: Record<string, unknown> = {}, matcher?: string): Record<string, unknown> {
  return { [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...extra }] }] };
}

export const signal = new AbortController().signal;

export function bash(call: string, id = 'toolu_1') {
  return { toolName: 'Bash', toolInput: { command: call }, toolUseId: id };
}
