/**
 * The app's blocking notice for a settings file that cannot be read, in a real terminal (tmux):
 * shown before anything runs, naming file:line:column and the problem; Enter (the default), "1" or
 * Esc exits with 2; going on without the file takes the explicit "2"; a broken managed policy offers
 * no way on. Nothing reaches the API before the choice.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject } from '../support/tmp-project.js';
import { cleanupsAfterEach, ensureBuilt, hasTmux, READY, startTui } from '../e2e/tui-driver.js';

const TMUX = hasTmux();
const cleanups = cleanupsAfterEach();
const BROKEN = '{ "permissions": { "deny": "Bash(rm:*)" } }';

async function world(files: { project?: string; local?: string; user?: string; managed?: string }) {
  const project = await makeTmpProject({ files: { victim: 'keep me\n' } });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  const managed = path.join(project.home, 'etc', 'managed-settings.json');
  if (files.project) await project.write('.claude/settings.json', files.project);
  if (files.local) await project.write('.claude/settings.local.json', files.local);
  if (files.user) await project.writeHome('.claude/settings.json', files.user);
  if (files.managed) {
    mkdirSync(path.dirname(managed), { recursive: true });
    writeFileSync(managed, files.managed);
  }
  const tui = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, columns: 220, rows: 40, env: { WICKET_MANAGED_SETTINGS: managed } });
  cleanups.push(() => tui.close());
  return { project, api, tui, managed };
}

describe.skipIf(!TMUX)('the notice for a settings file that cannot be read', { timeout: 90_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('names every broken file at file:line:column before anything runs; Enter (the default) exits with 2', async () => {
    const { project, api, tui } = await world({ project: BROKEN, user: '{ "permissions": { "deny": ["Bash(rm:*)"], } ' });
    const screen = await tui.waitFor('Settings files cannot be read');
    expect(screen).toContain(`${project.path('.claude/settings.json')}:1:28: permissions.deny must be a list of rule strings, found a string ("Bash(rm:*)")`);
    expect(screen).toContain('write it as a list: "deny": ["Bash(rm:*)"]');
    expect(screen).toContain(`${path.join(project.home, '.claude/settings.json')}:1:46: expected "}" to close the object, found the end of the file`);
    expect(screen).toMatch(/❯ 1\. Exit, and fix the files/);
    expect(screen).toContain('2. Continue without these files: their deny rules, hooks and settings do not apply');
    expect(screen).not.toContain(READY);
    tui.press('Enter');
    await tui.waitFor(/\[exited 2\]/);
    expect(api.requests).toHaveLength(0);
    expect(existsSync(project.path('victim'))).toBe(true);
  });

  it('Esc exits with 2 too', async () => {
    const { api, tui } = await world({ local: BROKEN });
    await tui.waitFor('A settings file cannot be read');
    tui.press('Escape');
    await tui.waitFor(/\[exited 2\]/);
    expect(api.requests).toHaveLength(0);
  });

  it('"2" goes on without the file, and the app says so', async () => {
    const { project, tui } = await world({ local: BROKEN });
    await tui.waitFor('A settings file cannot be read');
    tui.press('2');
    const screen = await tui.waitFor(READY);
    expect(screen).toContain(`${project.path('.claude/settings.local.json')}:1:28: permissions.deny must be a list`);
    expect(screen).toContain('going on without this file, as chosen: its permission rules, hooks and');
    tui.press('C-d');
    await tui.waitFor(/\[exited 0\]/);
  });

  it('a broken managed policy offers no way on: "2" does nothing, Enter exits with 2', async () => {
    const { managed, api, tui } = await world({ managed: '{ "permissions": [] }', local: BROKEN });
    const screen = await tui.waitFor('The managed settings policy cannot be read');
    expect(screen).toContain(`${managed}:1:18: permissions must be an object, found a list`);
    expect(screen).toContain('Nothing runs until the managed policy can be read.');
    expect(screen).not.toContain('2. Continue');
    tui.press('2');
    await new Promise((r) => setTimeout(r, 300));
    expect(tui.screen()).toContain('The managed settings policy cannot be read');
    tui.press('Enter');
    await tui.waitFor(/\[exited 2\]/);
    expect(api.requests).toHaveLength(0);
  });
});
