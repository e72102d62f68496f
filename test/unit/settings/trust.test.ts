import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWorkspaceTrusted, saveWorkspaceTrust, trustFolder } from '../../../src/settings/trust.js';
import { load, makeDirs, writeJson, type Dirs } from './helpers.js';

let d: Dirs;
beforeEach(() => {
  d = makeDirs();
});
afterEach(() => d.cleanup());

const globalFile = () => path.join(d.home, '.claude.json');
const where = () => ({ cwd: d.project, home: d.home });

describe('workspace trust', () => {
  it('is false without ~/.claude.json, with a malformed one, and for a folder never trusted', () => {
    expect(isWorkspaceTrusted(where())).toBe(false);
    writeFileSync(globalFile(), '{ not json');
    expect(isWorkspaceTrusted(where())).toBe(false);
    writeJson(globalFile(), { projects: { [d.project]: { hasTrustDialogAccepted: false }, '/elsewhere': { hasTrustDialogAccepted: true } } });
    expect(isWorkspaceTrusted(where())).toBe(false);
  });

  it('is true for the trusted folder and every folder under it', () => {
    writeJson(globalFile(), { projects: { [d.root]: { hasTrustDialogAccepted: true } } });
    expect(isWorkspaceTrusted(where())).toBe(true);
    const deep = path.join(d.project, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(isWorkspaceTrusted({ cwd: deep, home: d.home })).toBe(true);
  });

  it('reads $CLAUDE_CONFIG_DIR/.claude.json when a config folder is given', () => {
    const configDir = path.join(d.root, 'config');
    writeJson(path.join(configDir, '.claude.json'), { projects: { [d.project]: { hasTrustDialogAccepted: true } } });
    expect(isWorkspaceTrusted(where())).toBe(false);
    expect(isWorkspaceTrusted({ ...where(), configDir })).toBe(true);
  });

  it('is saved for the repository root, keeping every other key of the file', async () => {
    mkdirSync(path.join(d.project, '.git'));
    const sub = path.join(d.project, 'src');
    mkdirSync(sub);
    expect(trustFolder(sub)).toBe(d.project);
    writeJson(globalFile(), { numStartups: 3, projects: { [d.project]: { mcpServers: { x: { command: 'x' } } } } });
    await expect(saveWorkspaceTrust({ cwd: sub, home: d.home })).resolves.toBe(true);
    const data = JSON.parse(readFileSync(globalFile(), 'utf8'));
    expect(data).toEqual({ numStartups: 3, projects: { [d.project]: { mcpServers: { x: { command: 'x' } }, hasTrustDialogAccepted: true } } });
    expect(isWorkspaceTrusted({ cwd: sub, home: d.home })).toBe(true);
  });

  it('is never saved for the home folder (that would trust every folder under it)', async () => {
    await expect(saveWorkspaceTrust({ cwd: d.home, home: d.home })).resolves.toBe(false);
    expect(() => readFileSync(globalFile())).toThrow();
  });

  it('does not overwrite a ~/.claude.json that is not valid JSON', async () => {
    writeFileSync(globalFile(), '{ broken');
    await expect(saveWorkspaceTrust(where())).rejects.toThrow(/not valid JSON.*not changed/);
    expect(readFileSync(globalFile(), 'utf8')).toBe('{ broken');
  });
});

describe('loadSettings in a workspace that is not trusted', () => {
  const untrusted = { trusted: () => false };

  it("leaves out the project files' allow rules and additional directories, and says how to trust", () => {
    writeJson(d.projectFile, { permissions: { allow: ['Bash', 'Read'], ask: ['Edit'], deny: ['Read(./.env)'], additionalDirectories: ['../shared'] } });
    writeJson(d.localFile, { permissions: { allow: ['WebFetch'] } });
    writeJson(d.userFile, { permissions: { allow: ['Bash(ls:*)'], additionalDirectories: ['/opt/mine'] } });
    const l = load(d, untrusted);
    expect(l.rules.allow.map((r) => [r.source, r.raw])).toEqual([['userSettings', 'Bash(ls:*)']]);
    expect(l.rules.ask.map((r) => r.raw)).toEqual(['Edit']);
    expect(l.rules.deny.map((r) => r.raw)).toEqual(['Read(./.env)']);
    expect(l.additionalDirectories).toEqual(['/opt/mine']);
    expect((l.merged.permissions as { allow: string[] }).allow).toEqual(['Bash(ls:*)']);
    expect(l.warnings).toEqual([
      `${d.projectFile}: ignoring 2 permissions.allow entries and permissions.additionalDirectories: this workspace has not been trusted. Trust it with \`wicket trust\` (for CI too: it records hasTrustDialogAccepted in ~/.claude.json, as Claude Code does), or run wicket here once without -p and answer "Yes, I trust this folder", or put the rules in your own settings`,
      `${d.localFile}: ignoring 1 permissions.allow entry: this workspace has not been trusted. Trust it with \`wicket trust\` (for CI too: it records hasTrustDialogAccepted in ~/.claude.json, as Claude Code does), or run wicket here once without -p and answer "Yes, I trust this folder", or put the rules in your own settings`,
    ]);
  });

  it('keeps them when trusted, and asks about trust only when a project file has some', () => {
    writeJson(d.projectFile, { permissions: { deny: ['Bash'] }, model: 'x' });
    let asked = 0;
    const l = load(d, { trusted: () => (asked++, false) });
    expect(asked).toBe(0);
    expect(l.warnings).toEqual([]);
    writeJson(d.projectFile, { permissions: { allow: ['Bash'] } });
    expect(load(d, { trusted: () => (asked++, true) }).rules.allow.map((r) => r.raw)).toEqual(['Bash']);
    expect(asked).toBe(1);
  });

  it("the local file's autoMemoryDirectory (a folder the file tools may write without asking) waits for trust too; the shared file's never counts", () => {
    writeJson(d.localFile, { autoMemoryDirectory: '~/notes' });
    const l = load(d, untrusted);
    expect(l.autoMemoryDirectory).toBeUndefined();
    expect(l.warnings).toEqual([expect.stringContaining(`${d.localFile}: ignoring autoMemoryDirectory: this workspace has not been trusted`)]);
    expect(load(d, { trusted: () => true }).autoMemoryDirectory).toBe('~/notes');
    writeJson(d.localFile, {});
    writeJson(d.projectFile, { autoMemoryDirectory: '~/notes' });
    expect(load(d, { trusted: () => true }).autoMemoryDirectory).toBeUndefined();
    writeJson(d.userFile, { autoMemoryDirectory: '~/mine' });
    expect(load(d, untrusted).autoMemoryDirectory).toBe('~/mine');
  });

  it('reads the trust from ~/.claude.json by default', () => {
    writeJson(d.projectFile, { permissions: { allow: ['Bash'] } });
    expect(load(d, { trusted: undefined }).rules.allow).toEqual([]);
    writeJson(globalFile(), { projects: { [d.project]: { hasTrustDialogAccepted: true } } });
    expect(load(d, { trusted: undefined }).rules.allow.map((r) => r.raw)).toEqual(['Bash']);
  });
});
