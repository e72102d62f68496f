import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatSettingsReport } from '../../../src/settings/report.js';
import { load, makeDirs, writeJson, type Dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

describe('formatSettingsReport', () => {
  it('lists the sources, every rule with its origin, hooks and warnings; env names but never values', () => {
    writeJson(d.userFile, { permissions: { deny: ['Read(~/.ssh/**)'] }, env: { API_TOKEN: 'sk-secret-value' } });
    writeJson(d.projectFile, {
      permissions: { allow: ['Bash(npm test:*)', '*'], defaultMode: 'acceptEdits' },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh', timeout: 5 }] }] },
    });
    writeJson(d.localFile, '{ broken');
    const report = formatSettingsReport(load(d, { cliAllowed: ['WebSearch'] }));
    expect(report).toContain('Settings sources (highest precedence first):');
    expect(report).toMatch(/managed\s+not found\s+\S+managed-settings\.json/);
    expect(report).toMatch(new RegExp(`projectSettings\\s+loaded\\s+${d.projectFile.replace(/[.]/g, '\\.')}`));
    expect(report).toContain('Permission mode: acceptEdits');
    expect(report).toMatch(/Read\(~\/\.ssh\/\*\*\)\s+userSettings/);
    expect(report).toMatch(/Bash\(npm test:\*\)\s+projectSettings/);
    expect(report).toMatch(/WebSearch\s+cli/);
    expect(report).toContain('(ignored: tool-name globs are honoured only in deny and ask lists)');
    expect(report).toContain('PreToolUse [Bash]  ./guard.sh  projectSettings  (timeout 5s)');
    expect(report).toContain('Environment (names only): API_TOKEN');
    expect(report).not.toContain('sk-secret-value');
    expect(report).toMatch(/Warnings \(1\):/);
    expect(report).toMatch(new RegExp(`localSettings\\s+UNREADABLE\\s+${d.localFile.replace(/[.]/g, '\\.')}`));
    expect(report).toContain('Errors (1): these cannot be read as settings, and no session starts until they are fixed:');
    expect(report).toContain(`  ${d.localFile}:1:3: unexpected "broken"`);
  });

  it('says so when there is nothing', () => {
    const report = formatSettingsReport(load(d));
    expect(report).toContain('deny: (none)');
    expect(report).toContain('Hooks: (none)');
    expect(report).toContain('Warnings: none');
    expect(report).toContain('Permission mode: default');
  });

  it('shows that hooks are disabled', () => {
    writeJson(d.projectFile, { disableAllHooks: true, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] } });
    expect(formatSettingsReport(load(d))).toContain('Hooks: all disabled (disableAllHooks)');
  });
});
