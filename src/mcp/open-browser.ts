/**
 * Tries to open a URL in the person's browser: `$BROWSER` when set, else `open` (macOS) or
 * `xdg-open`. Never waits for it and never fails: when nothing opens, the URL shown is the way.
 */
export function openBrowser(url: string, env: Record<string, string | undefined> = process.env): void {
  const command = env.BROWSER?.trim() || (process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? '' : 'xdg-open');
  if (!command) return;
  try {
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(command, [url], { stdio: 'ignore', detached: true, env: env as NodeJS.ProcessEnv });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no browser: the URL is on the screen
  }
}
