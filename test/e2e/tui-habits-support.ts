/**
 * What the tmux batteries of the everyday keys and commands share: a project and a fake API per
 * test, the app opened on them, a prompt typed and sent.
 */
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic-server.js';
import { makeTmpProject, type TmpProject, type TmpProjectOptions } from '../support/tmp-project.js';
import { READY, startTui, type Tui, type TuiOptions } from './tui-driver.js';

export { reply, READY };

export interface Opened {
  project: TmpProject;
  api: FakeAnthropic;
  tui: Tui;
}

/** A project (with `options`), a fake API, and the app on them at 100×32 unless told; all closed after the test. */
export async function openApp(
  cleanups: Array<() => unknown>,
  options: TmpProjectOptions = {},
  tui: Partial<Omit<TuiOptions, 'cwd' | 'home'>> = {},
): Promise<Opened> {
  const project = await makeTmpProject({ files: {}, ...options });
  const api = await startFakeAnthropic();
  cleanups.push(
    () => project.cleanup(),
    () => api.close(),
  );
  const t = startTui({ cwd: project.dir, home: project.home, baseUrl: api.url, ...tui });
  cleanups.push(() => t.close());
  return { project, api, tui: t };
}

/** Waits for the prompt, types `text` and sends it. */
export async function send(tui: Tui, text: string): Promise<void> {
  await tui.waitFor(READY);
  tui.type(text);
  await tui.waitFor(text.split('\n').at(-1)!.slice(-30));
  tui.press('Enter');
}

/** The text blocks of the last message of the last request the fake API received. */
export function lastUserText(api: FakeAnthropic): string {
  const m = api.messageRequests().at(-1)?.body.messages?.at(-1);
  if (!m) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((b: { type: string; text?: string }) => (b.type === 'text' ? b.text : '')).join('\n');
}

/** Resolves after `ms`. */
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
