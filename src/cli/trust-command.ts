/**
 * `wicket trust [dir]`: trusts a folder without the app's dialog (for CI and scripts), writing what
 * the dialog writes and Claude Code reads: `projects["<folder>"].hasTrustDialogAccepted: true` in
 * `~/.claude.json` (`CLAUDE_CONFIG_DIR` honoured), for the repository's root when the folder is in
 * one. The home folder is refused: trusting it would trust every folder under it.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../base/errors.js';
import { globalConfigPath } from '../settings/paths.js';
import { isWorkspaceTrusted, saveWorkspaceTrust, trustFolder } from '../settings/trust.js';

export const TRUST_USAGE = 'usage: wicket trust [folder]   (default: the current folder)';

export async function runTrustCommand(args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  if (args.some((a) => a === '-h' || a === '--help')) {
    process.stdout.write(`${TRUST_USAGE}\nTrusts the folder (its repository's root when it is in one), as answering "Yes, I trust this folder" does.\n`);
    return 0;
  }
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
    process.stderr.write(`wicket: ${TRUST_USAGE}\n`);
    return 2;
  }
  let dir: string;
  try {
    dir = realpathSync(path.resolve(args[0] ?? '.'));
    if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
  } catch (err) {
    process.stderr.write(`wicket: trust: ${errorMessage(err)}\n`);
    return 1;
  }
  const home = env.HOME ?? homedir();
  const where = { cwd: dir, home, configDir: env.CLAUDE_CONFIG_DIR || undefined };
  const folder = trustFolder(dir);
  const file = globalConfigPath(home, where.configDir);
  if (folder === path.resolve(home)) {
    process.stderr.write(`wicket: trust: ${folder} is your home folder: trusting it would trust every folder under it. Trust a project folder instead.\n`);
    return 1;
  }
  if (isWorkspaceTrusted(where)) {
    process.stdout.write(`${folder} is already trusted (${file}).\n`);
    return 0;
  }
  try {
    await saveWorkspaceTrust(where);
  } catch (err) {
    process.stderr.write(`wicket: trust: ${errorMessage(err)}\n`);
    return 1;
  }
  process.stdout.write(`Trusted ${folder}: its project settings' permissions.allow and additionalDirectories now apply (saved to ${file}).\n`);
  return 0;
}
