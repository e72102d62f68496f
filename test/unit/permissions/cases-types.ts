/** Shapes and shorthands for the decision tables. `{P}`, `{H}`, `{O}`: project, home, outside. */
import type { PermissionMode } from '../../../src/base/permission-modes.js';
import type { SettingsSpec } from './world.js';

export interface DecisionCase {
  name: string;
  settings: SettingsSpec;
  tool: string;
  input: Record<string, unknown>;
  expect: 'allow' | 'deny' | 'ask';
  mode?: PermissionMode;
  cwd?: string;
  additionalDirs?: string[];
  /** Pass the loaded permissions.additionalDirectories as the session's extra directories. */
  settingsDirs?: boolean;
  /** Substring of the decision's `by`. */
  by?: string;
}

export type Perms = { allow?: string[]; ask?: string[]; deny?: string[]; [k: string]: unknown };

/** Rules in the shared project file. */
export const proj = (permissions: Perms): SettingsSpec => ({ project: { permissions } });
export const none: SettingsSpec = {};

export const read = (p: string) => ({ file_path: p });
export const edit = (p: string) => ({ file_path: p, old_string: 'content', new_string: 'changed' });
export const write = (p: string) => ({ file_path: p, content: 'x' });
export const grep = (p: string) => ({ pattern: 'x', path: p });
export const glob = (p: string) => ({ pattern: '**/*', path: p });
export const nb = (p: string) => ({ notebook_path: p, new_source: 'x' });
export const bash = (command: string) => ({ command });
export const fetch = (url: string) => ({ url, prompt: 'summarise' });
export const noInput = {};

type Opts = Partial<Pick<DecisionCase, 'mode' | 'cwd' | 'additionalDirs' | 'settingsDirs' | 'by'>>;

/** One row: name, settings, tool, input, expected behavior, options. */
export function row(
  name: string,
  settings: SettingsSpec,
  tool: string,
  input: Record<string, unknown>,
  expect: DecisionCase['expect'],
  opts: Opts = {},
): DecisionCase {
  return { name, settings, tool, input, expect, ...opts };
}
