import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHooks, one, signal, tempDir } from './helpers.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('WorktreeCreate and WorktreeRemove in the gate', () => {
  it('without such hooks: nothing made, nothing removed', async () => {
    const { hooks } = buildHooks({});
    expect(hooks.handles('WorktreeCreate')).toBe(false);
    expect(await hooks.worktreeCreate({ name: 'x' }, signal)).toBeUndefined();
    expect(await hooks.worktreeRemove({ worktreePath: '/w' }, signal)).toBe(false);
  });

  it('a command hook: the last line of stdout is the path; an http hook: hookSpecificOutput.worktreePath', async () => {
    const dir = tempDir();
    const { hooks } = buildHooks(one('WorktreeCreate', `cat >/dev/null; echo working; echo "${dir}"`));
    expect(hooks.handles('WorktreeCreate')).toBe(true);
    expect(await hooks.worktreeCreate({ name: 'x' }, signal)).toEqual({ path: dir });
    let body = '';
    server = createServer((req, res) => {
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(200).end(JSON.stringify({ hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: dir } })));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wt`;
    const http = buildHooks({ WorktreeCreate: [{ hooks: [{ type: 'http', url }] }] }).hooks;
    expect(await http.worktreeCreate({ name: 'feature-auth' }, signal)).toEqual({ path: dir });
    expect(JSON.parse(body)).toMatchObject({ hook_event_name: 'WorktreeCreate', name: 'feature-auth', session_id: 'sess-1' });
  });

  it('a failing hook, no path, or exit 2 fail the creation with the reason, and leave no notice behind', async () => {
    for (const [command, expected] of [
      ['echo "no room" >&2; exit 1', 'exited with status 1: no room'],
      ['echo "policy says no" >&2; exit 2', 'exited with status 2: policy says no'],
      ['true', 'gave no worktree path'],
    ]) {
      const { hooks } = buildHooks(one('WorktreeCreate', command!));
      const made = await hooks.worktreeCreate({ name: 'x' }, signal);
      expect(made).toEqual({ error: expect.stringContaining(expected!) });
      expect(hooks.drainNotices()).toEqual([]);
    }
  });

  it('WorktreeRemove hooks get the path and cannot block', async () => {
    const { hooks, projectRoot } = buildHooks(one('WorktreeRemove', 'cat > "$CLAUDE_PROJECT_DIR/in.json"; exit 2'));
    expect(await hooks.worktreeRemove({ worktreePath: '/w/feature' }, signal)).toBe(true);
    expect(JSON.parse(readFileSync(`${projectRoot}/in.json`, 'utf8'))).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: '/w/feature' });
  });
});
