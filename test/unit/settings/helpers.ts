/** Temporary project / home / managed folders for settings tests; never the real ~/.claude or /etc. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSettings, type LoadSettingsOptions, type LoadedSettings } from '../../../src/settings/load.js';

export const SETTINGS_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/settings');

export interface Dirs {
  root: string;
  project: string;
  home: string;
  managed: string;
  userFile: string;
  projectFile: string;
  localFile: string;
  cleanup(): void;
}

export function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'wicket-settings-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(path.join(root, 'etc'), { recursive: true });
  return {
    root,
    project,
    home,
    managed: path.join(root, 'etc/managed-settings.json'),
    userFile: path.join(home, '.claude/settings.json'),
    projectFile: path.join(project, '.claude/settings.json'),
    localFile: path.join(project, '.claude/settings.local.json'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function writeJson(file: string, data: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2));
}

export function load(d: Dirs, extra: Partial<LoadSettingsOptions> = {}): LoadedSettings {
  return loadSettings({ cwd: d.project, home: d.home, managedPath: d.managed, trusted: () => true, ...extra });
}
