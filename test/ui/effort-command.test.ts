import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../src/ui/commands/builtin.js';
import type { SessionControl } from '../../src/ui/commands/types.js';

const effort = BUILTIN_COMMANDS.find((c) => c.name === 'effort')!;
const session = (model = 'claude-opus-4-7') => ({ options: { model } }) as unknown as SessionControl;

describe('/effort', () => {
  it('shows the level, sets one, and auto clears it', async () => {
    const s = session();
    expect(await effort.run('', s)).toMatchObject({ text: expect.stringContaining('Effort: auto') });
    expect(await effort.run('xhigh', s)).toMatchObject({ text: 'Effort set to xhigh' });
    expect(s.options.effort).toBe('xhigh');
    expect(await effort.run('', s)).toMatchObject({ text: expect.stringContaining('Effort: xhigh') });
    expect(await effort.run('auto', s)).toMatchObject({ text: 'Effort set to auto' });
    expect(s.options.effort).toBeUndefined();
  });

  it('refuses an unknown level and says when the model takes none', async () => {
    const s = session('claude-haiku-4-5');
    expect(await effort.run('huge', s)).toMatchObject({ text: expect.stringContaining('Unknown effort level "huge"') });
    expect(s.options.effort).toBeUndefined();
    expect(await effort.run('low', s)).toMatchObject({ text: expect.stringContaining('takes no effort level: not sent') });
  });
});
