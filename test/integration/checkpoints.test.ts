/** File checkpoints through the built binary in print mode: the main agent's and a sub-agent's edits are saved with the session. */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHistory } from '../../src/core/file-history.js';
import { DiskHistoryStore } from '../../src/core/file-history-store.js';
import { loadSession } from '../../src/session/transcript-read.js';
import { transcriptFile } from '../../src/session/paths.js';
import { useApiAndProject } from '../support/api-project.js';
import { reply } from '../support/fake-anthropic-server.js';
import { expectExit } from '../support/run-cli.js';

const t = useApiAndProject({ files: { 'a.ts': 'export const a = 1;\n' } });

function script() {
  const a = t.project.path('a.ts');
  t.api.script(
    reply().toolUse('Read', { file_path: a }),
    reply().toolUse('Edit', { file_path: a, old_string: '= 1', new_string: '= 2' }),
    reply().toolUse('Agent', { description: 'make b', prompt: 'Create b.txt' }, { id: 'toolu_agent' }),
    reply().toolUse('Write', { file_path: t.project.path('b.txt'), content: 'made by a sub-agent\n' }),
    reply().text('Created b.txt.'),
    reply().text('Done.'),
  );
}

describe('file checkpoints in print mode', () => {
  it('saves the state before the first change of each file, sub-agents included; the saved session restores them', async () => {
    script();
    const r = await t.run(['-p', 'change a and make b', '--permission-mode', 'acceptEdits', '--output-format', 'json']);
    expectExit(r, 0);
    const id = r.json<{ session_id: string }>().session_id;
    const dir = path.join(t.project.wicketHome, 'file-history', id);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'checkpoints.json'), 'utf8'));
    expect(manifest.checkpoints).toHaveLength(1);
    expect(manifest.checkpoints[0].files).toEqual({
      [t.project.path('a.ts')]: { backup: expect.stringMatching(/@v1$/), mode: expect.any(Number) },
      [t.project.path('b.txt')]: { absent: true },
    });
    expect(readFileSync(path.join(dir, manifest.checkpoints[0].files[t.project.path('a.ts')].backup), 'utf8')).toBe('export const a = 1;\n');

    // The transcript names the checkpoint of the prompt; restoring to it puts both files back.
    const saved = loadSession(transcriptFile(path.join(t.project.home, '.claude'), t.project.dir, id));
    expect(saved.marks).toEqual([{ text: 'change a and make b', checkpoint: manifest.checkpoints[0].id, at: 0 }]);
    const report = await new FileHistory(new DiskHistoryStore(dir)).restore(saved.marks[0]!.checkpoint!);
    expect(report).toEqual({ restored: [t.project.path('a.ts')], deleted: [t.project.path('b.txt')], failed: [] });
    expect(readFileSync(t.project.path('a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(existsSync(t.project.path('b.txt'))).toBe(false);
  });

  it('--no-session-persistence and fileCheckpointingEnabled: false leave no file history on disk', async () => {
    script();
    expectExit(await t.run(['-p', 'go', '--permission-mode', 'acceptEdits', '--no-session-persistence']), 0);
    expect(readFileSync(t.project.path('a.ts'), 'utf8')).toBe('export const a = 2;\n');
    expect(existsSync(path.join(t.project.wicketHome, 'file-history'))).toBe(false);

    mkdirSync(path.join(t.project.dir, '.claude'), { recursive: true });
    writeFileSync(path.join(t.project.dir, '.claude', 'settings.json'), JSON.stringify({ fileCheckpointingEnabled: false }));
    writeFileSync(t.project.path('a.ts'), 'export const a = 1;\n');
    script();
    const r = await t.run(['-p', 'go', '--permission-mode', 'acceptEdits', '--output-format', 'json']);
    expectExit(r, 0);
    expect(r.json<{ is_error: boolean }>().is_error).toBe(false);
    expect(existsSync(path.join(t.project.wicketHome, 'file-history'))).toBe(false);
    expect(readdirSync(path.join(t.project.home, '.claude', 'projects'))).toHaveLength(1);
  });
});
