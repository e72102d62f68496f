/**
 * Bash commands running in the foreground, for the app's Ctrl+B: each running call registers how
 * to let go of its command, which then goes on as a background task (its output file, its process
 * group) while the call returns at once with the task's id, as `run_in_background` would have.
 */
const running = new Set<() => void>();

/** While a command runs in the foreground: `detach` is called when the person sends it to the background. */
export function whileInForeground(detach: () => void): () => void {
  running.add(detach);
  return () => running.delete(detach);
}

/** Ctrl+B: every command running in the foreground goes on in the background; how many did. */
export function sendForegroundToBackground(): number {
  const all = [...running];
  running.clear();
  for (const detach of all) detach();
  return all.length;
}

export function foregroundCount(): number {
  return running.size;
}
