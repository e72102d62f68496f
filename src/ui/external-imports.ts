/**
 * Before the app starts on a project whose instruction files import files from outside the working
 * directory, and the person was never asked: the dialog (ExternalImportsDialog.tsx), the answer saved
 * for the project, and the instruction files read again when it is yes. Nothing is asked when no such
 * import was left out, so a project without one costs nothing here.
 */
import { homedir } from 'node:os';
import { errorMessage } from '../base/errors.js';
import type { SessionInstructions } from '../session/memory/session-instructions.js';
import { saveExternalImportsAnswer } from '../settings/external-imports.js';
import { askExternalImports } from './ExternalImportsDialog.js';

/** 'stop' when the person closed the dialog with Ctrl-C; a note when the answer could not be saved. */
export async function confirmExternalImports(instructions: SessionInstructions | undefined, cwd: string): Promise<{ stop?: true; note?: string }> {
  if (!instructions?.waitsForExternalApproval()) return {};
  const imports = instructions.externalImports().map((i) => i.path);
  const approved = await askExternalImports(imports);
  if (approved === undefined) return { stop: true };
  instructions.answerExternal(approved);
  const env = process.env;
  try {
    await saveExternalImportsAnswer({ cwd, home: env.HOME ?? homedir(), ...(env.CLAUDE_CONFIG_DIR ? { configDir: env.CLAUDE_CONFIG_DIR } : {}) }, approved);
    return {};
  } catch (err) {
    return { note: `The answer on imports from outside the project holds for this session only: ${errorMessage(err)}` };
  }
}
