/**
 * Print mode starts the prompt's snapshot as soon as the model's stream names a tool that may change
 * files, while the tool's input still streams, so that git's scan overlaps it; the call's PreToolUse
 * hooks run after the scan, so a rewind undoes what they wrote too; a reply of text alone creates no
 * snapshot at all. Through the built binary.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const INPUT_MS = 2000;

const t = useApiAndProject({
  files: { 'a.txt': 'one\n', 'src/b.ts': 'export const b = 1;\n' },
  settings: {
    permissions: { allow: ['Bash'] },
    // a PreToolUse hook that writes into the project: its change lands after the snapshot
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hooked > "$CLAUDE_PROJECT_DIR/hook.txt"' }] }] },
  },
});

/** When the shadow repository's index (written by the snapshot's scan) first appeared, polled every 20 ms. */
function watchIndex(root: string): { stop: () => number | undefined } {
  let seen: number | undefined;
  const timer = setInterval(() => {
    if (seen !== undefined || !existsSync(root)) return;
    for (const d of readdirSync(root)) if (existsSync(path.join(root, d, 'index'))) seen = statSync(path.join(root, d, 'index')).mtimeMs;
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return seen;
    },
  };
}

describe('the snapshot of a print-mode prompt', () => {
  it('starts when the stream names Bash, before its input has streamed, and the call still runs after it', async () => {
    let asked = 0;
    t.api.script(
      reply(() => {
        asked = Date.now();
        return reply().text('Writing it.').toolUse('Bash', { command: 'echo two > a.txt', description: 'write' }, { inputDelayMs: INPUT_MS });
      }),
      reply().text('Done.'),
    );
    const index = watchIndex(path.join(t.project.wicketHome, 'snapshots'));
    expectExit(await t.run(['-p', 'change a.txt']), 0);
    const scanned = index.stop();
    expect(scanned).toBeDefined();
    // the scan was done while the model still streamed the command
    expect(scanned! - asked).toBeLessThan(INPUT_MS - 500);
    expect(await t.project.read('a.txt')).toBe('two\n');
    expect(t.project.exists('hook.txt')).toBe(true);
    // the snapshot holds the project as it was before the call and its PreToolUse hook
    expectExit(await t.run(['rewind', '--to', '1', '--code', '--yes']), 0);
    expect(await t.project.read('a.txt')).toBe('one\n');
    expect(t.project.exists('hook.txt')).toBe(false);
  });

  it('is not taken for a reply of text alone', async () => {
    t.api.script(reply().text('Nothing to change.'));
    expectExit(await t.run(['-p', 'just answer']), 0);
    expect(existsSync(path.join(t.project.wicketHome, 'snapshots'))).toBe(false);
  });
});
