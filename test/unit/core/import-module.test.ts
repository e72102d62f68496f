import { describe, expect, it } from 'vitest';
import { importModule, loadedOnDemand, requireModule } from '../../../src/base/lib/import-module.js';

describe('modules loaded on demand', () => {
  it('are loaded through one place that notes their names for the code cache', async () => {
    const rg = requireModule<{ rgPath: string }>('@vscode/ripgrep');
    expect(typeof rg.rgPath).toBe('string');
    const os = await importModule<typeof import('node:os')>('node:os');
    expect(typeof os.platform()).toBe('string');
    expect(loadedOnDemand().has('@vscode/ripgrep')).toBe(true);
    expect(loadedOnDemand().has('node:os')).toBe(true);
  });
});
