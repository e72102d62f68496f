import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHooks, tempDir } from './helpers.js';

const signal = new AbortController().signal;

/** A hook printing `out` (as JSON) and logging its input, exiting with `code`. */
function hookFile(dir: string, name: string, out: unknown, code = 0): string {
  const file = path.join(dir, `${name}.sh`);
  writeFileSync(
    file,
    `cat > ${JSON.stringify(path.join(dir, `${name}.in`))}\n${out === undefined ? '' : `printf '%s' '${JSON.stringify(out)}'\n`}${code === 2 ? 'echo no >&2\n' : ''}exit ${code}\n`,
  );
  return `sh ${JSON.stringify(file)}`;
}

describe('Elicitation and ElicitationResult hooks', () => {
  it('load without a warning and match the server name', async () => {
    const dir = tempDir();
    const { hooks, warnings } = buildHooks(
      {
        Elicitation: [
          { matcher: 'other', hooks: [{ type: 'command', command: hookFile(dir, 'a', { hookSpecificOutput: { action: 'decline' } }) }] },
          { matcher: 'forms', hooks: [{ type: 'command', command: hookFile(dir, 'b', { hookSpecificOutput: { action: 'accept', content: { n: 1 } } }) }] },
        ],
      },
      { projectRoot: dir },
    );
    expect(warnings).toEqual([]);
    const info = { server: 'forms', message: 'Name?', mode: 'form' as const, requestedSchema: { type: 'object' } };
    expect(await hooks.elicitation(info, signal)).toEqual({ action: 'accept', content: { n: 1 } });
  });

  it('exit 2 declines and its stderr is a notice; no answer is undefined', async () => {
    const dir = tempDir();
    const { hooks } = buildHooks({ ElicitationResult: [{ hooks: [{ type: 'command', command: hookFile(dir, 'r', undefined, 2) }] }] }, { projectRoot: dir });
    expect(await hooks.elicitationResult({ server: 'forms', mode: 'form', action: 'accept', content: { n: 1 } }, signal)).toEqual({
      action: 'decline',
      blocked: 'no',
    });
    expect(hooks.drainNotices().join('\n')).toContain('no');
    const quiet = buildHooks({ Elicitation: [{ hooks: [{ type: 'command', command: 'true' }] }] }, { projectRoot: dir });
    expect(await quiet.hooks.elicitation({ server: 'x', message: 'm', mode: 'url', url: 'https://x.test', elicitationId: 'e' }, signal)).toBeUndefined();
  });
});
