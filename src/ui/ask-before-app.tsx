/**
 * A question drawn alone before the app starts (trust, broken settings, project plugins, outside
 * imports): the dialog is given the function that answers; the promise resolves with the answer, or
 * with `unanswered` when Ctrl-C closed it first. `clear`: the dialog leaves nothing in the scrollback.
 */
import { render } from 'ink';
import type React from 'react';

export async function askBeforeApp<T, U = T>(dialog: (answer: (a: T) => void) => React.ReactElement, unanswered: U, clear = true): Promise<T | U> {
  let answer: T | U = unanswered;
  const instance = render(
    dialog((a) => {
      answer = a;
      if (clear) instance.clear();
      instance.unmount();
    }),
    { exitOnCtrlC: true, patchConsole: false },
  );
  await instance.waitUntilExit().catch(() => undefined);
  instance.cleanup();
  return answer;
}
