/**
 * Mount points the sandbox makes in the user's folders. To keep a sandboxed command from creating
 * `.claude/`, `.mcp.json` or `CLAUDE.md` where there is none, bubblewrap mounts an empty read-only
 * folder or file at that path; bubblewrap has to create the path first, so an empty folder or file
 * appears on disk while the command runs. It is removed again (only while it is still empty) when
 * the last sandbox using it ends.
 *
 * "The last": deleting a mount point on the host takes the mount away inside every other sandbox
 * that still has it (the kernel detaches mounts on a removed dentry), which would open the path to
 * those commands. So each path is leased: in this process by a count, across wicket processes by a
 * marker file per process in `<tmpdir>/wicket-sandbox-mounts/`. A path is removed only when no
 * living process holds a lease on it. A path that some sandbox is using already exists when the next
 * one starts, and is leased and masked again rather than taken for the user's own file.
 */
import { lstatSync, mkdirSync, readdirSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const counts = new Map<string, number>();
let exitHookInstalled = false;

function markerDir(): string {
  return path.join(tmpdir(), 'wicket-sandbox-mounts');
}

function keyOf(p: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(p).digest('hex').slice(0, 32);
}

/** Is `p` a mount point some sandbox (this process's or another living wicket's) is using? */
export function isLeased(p: string): boolean {
  if ((counts.get(p) ?? 0) > 0) return true;
  return otherHolders(p).length > 0;
}

/** Take a lease on each path (before bubblewrap creates it); the returned function gives them back. */
export function leaseMountPoints(paths: readonly string[]): () => void {
  installExitHook();
  const held = [...new Set(paths)];
  for (const p of held) {
    const n = counts.get(p) ?? 0;
    counts.set(p, n + 1);
    if (n === 0) writeMarker(p);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const p of held) {
      const n = (counts.get(p) ?? 1) - 1;
      if (n > 0) {
        counts.set(p, n);
        continue;
      }
      counts.delete(p);
      removeMarker(p);
      if (otherHolders(p).length === 0) removeIfEmpty(p);
    }
  };
}

function writeMarker(p: string): void {
  try {
    mkdirSync(markerDir(), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(markerDir(), `${keyOf(p)}.${process.pid}`), p);
  } catch {
    // Without a marker another wicket process could remove the path early; this process still holds it.
  }
}

function removeMarker(p: string): void {
  rmSync(path.join(markerDir(), `${keyOf(p)}.${process.pid}`), { force: true });
}

/** Pids of other living processes holding `p` (markers of dead ones are removed on the way). */
function otherHolders(p: string): number[] {
  const prefix = `${keyOf(p)}.`;
  let names: string[];
  try {
    names = readdirSync(markerDir()).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const alive: number[] = [];
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (processAlive(pid)) alive.push(pid);
    else rmSync(path.join(markerDir(), name), { force: true });
  }
  return alive;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove what bubblewrap created: an empty file or an empty folder; anything with content stays. */
function removeIfEmpty(p: string): void {
  try {
    const st = lstatSync(p);
    if (st.isFile() && st.size === 0) unlinkSync(p);
    else if (st.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  } catch {
    // already gone, or not ours to remove
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const p of counts.keys()) {
      removeMarker(p);
      if (otherHolders(p).length === 0) removeIfEmpty(p);
    }
    counts.clear();
  });
}
