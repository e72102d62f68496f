/**
 * Where a language server's command is: a path as given (relative to the workspace folder), else the
 * first executable of that name on the PATH, then in the project's node_modules/.bin when the
 * workspace is trusted (a cloned repository's own binaries run only where the person trusts it).
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export function findCommand(command: string, o: { folder: string; projectRoot: string; pathVar: string | undefined; trusted: boolean }): string | undefined {
  if (command.includes('/')) {
    const abs = path.resolve(o.folder, command);
    return executable(abs) ? abs : undefined;
  }
  const dirs = (o.pathVar ?? '').split(path.delimiter).filter(Boolean);
  if (o.trusted) dirs.push(path.join(o.projectRoot, 'node_modules', '.bin'));
  for (const dir of dirs) {
    const candidate = path.join(dir, command);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
