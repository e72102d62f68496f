/**
 * The commands a Claude Code user reaches for, in a real terminal (tmux): /vim, /config, /theme,
 * /model with its picker; each change is saved to the user settings file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupsAfterEach, ensureBuilt, hasTmux } from './tui-driver.js';
import { lastUserText, openApp, pause, reply, send } from './tui-habits-support.js';

const cleanups = cleanupsAfterEach();
const userSettings = (home: string) => JSON.parse(readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));

/** The user settings once `key` holds `value`: the app saves a choice after it shows it (an atomic write of its own). */
async function savedSetting(home: string, key: string, value: unknown): Promise<unknown> {
  const end = Date.now() + 10_000;
  for (;;) {
    let now: unknown;
    try {
      now = userSettings(home)[key];
    } catch {
      now = undefined; // not written yet
    }
    if (now === value || Date.now() > end) return now;
    await pause(25);
  }
}

describe.skipIf(!hasTmux())('commands of the app', { timeout: 60_000 }, () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('/vim turns vim keys on (saved as editorMode): Esc for NORMAL, dw deletes a word, i types again', async () => {
    const { project, api, tui } = await openApp(cleanups);
    api.script(reply().text('Vim works.'));
    await send(tui, '/vim');
    await tui.waitFor('Editor mode set to vim');
    expect(await savedSetting(project.home, 'editorMode', 'vim')).toBe('vim');
    await tui.waitFor('-- INSERT --');
    tui.type('drop this word');
    await tui.waitFor('drop this word');
    await pause(150);
    tui.press('Escape');
    await tui.waitFor('-- NORMAL --');
    for (const k of ['0', 'd', 'w', 'i']) {
      tui.type(k);
      await pause(100);
    }
    await tui.waitFor('-- INSERT --');
    tui.type('keep ');
    await tui.waitFor('keep this word');
    tui.press('Enter');
    await tui.waitFor('● Vim works.');
    expect(lastUserText(api)).toContain('keep this word');
  });

  it('/config changes a setting with Enter and saves it; Esc closes', async () => {
    const { project, tui } = await openApp(cleanups);
    await send(tui, '/config');
    await tui.waitFor(/Theme\s+dark/);
    expect(tui.screen()).toMatch(/Model\s+sonnet/);
    tui.press('Down');
    await pause(100);
    tui.press('Enter');
    await tui.waitFor(/Theme\s+light/);
    tui.press('Down');
    await pause(100);
    tui.press('Enter');
    await tui.waitFor(/Editor mode\s+vim/);
    tui.press('Escape');
    await tui.waitFor('-- INSERT --');
    expect(await savedSetting(project.home, 'editorMode', 'vim')).toBe('vim');
    expect(await savedSetting(project.home, 'theme', 'light')).toBe('light');
  });

  it('/theme opens a list; the choice is saved; /theme with a name sets it at once', async () => {
    const { project, tui } = await openApp(cleanups);
    await send(tui, '/theme');
    await tui.waitFor('Choose the text style');
    expect(tui.screen()).toContain('colour-blind-friendly');
    tui.press('3');
    await tui.waitFor('Theme set to dark-daltonized');
    expect(await savedSetting(project.home, 'theme', 'dark-daltonized')).toBe('dark-daltonized');
    await send(tui, '/theme light');
    await tui.waitFor('Theme set to light');
    expect(await savedSetting(project.home, 'theme', 'light')).toBe('light');
  });

  it('/model opens a picker; the model chosen is used for the next request and saved as the default', async () => {
    const { project, api, tui } = await openApp(cleanups);
    api.script(reply().text('Answered by the new model.'));
    await send(tui, '/model');
    await tui.waitFor('Select a model');
    tui.press('Down');
    await pause(100);
    tui.press('Enter');
    await tui.waitFor('Set model to claude-opus');
    expect(await savedSetting(project.home, 'model', 'opus')).toBe('opus');
    await send(tui, 'hello');
    await tui.waitFor('● Answered by the new model.');
    expect(api.messageRequests()[0]!.body.model).toMatch(/^claude-opus/);
  });
});
