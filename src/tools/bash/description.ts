/** What the model reads about Bash. */
import { bashLimits } from './limits.js';

export function bashDescription(ctx: { cwd: string; platform: string; env?: Record<string, string | undefined>; settings?: Record<string, unknown> }): string {
  const { defaultTimeoutMs, maxTimeoutMs, outputChars } = bashLimits(ctx.env, ctx.settings);
  return `Runs a bash command and returns its output (stdout and stderr interleaved as produced).

- Each call is a separate \`bash -c\` process in the working directory (now ${ctx.cwd}). A \`cd\` carries over
  to later calls, but only within the project and its additional directories; environment variables and
  shell functions do not carry over.
- Prefer the dedicated tools over shell equivalents: Read instead of cat/head/tail, Grep instead of grep/rg,
  Glob instead of find/ls patterns, Edit/Write instead of sed -i or echo > file.
- Quote paths that contain spaces. Chain dependent commands with \`&&\`; run independent read-only commands
  as separate calls so they can run in parallel.
- \`timeout\` is in milliseconds: default ${defaultTimeoutMs}, at most ${maxTimeoutMs}. On timeout or interruption
  the whole process group is stopped and the output so far is returned.
- Output over ${outputChars} characters is saved in full to a file; you get its head and tail and the
  file's path, to Read or Grep the rest. Colour codes are removed and progress lines collapsed.
- \`run_in_background: true\` starts a long-running command (a server, a watcher) and returns at once with
  a task id and an output file; read new output with TaskOutput and stop it with TaskStop. Do not append
  \`&\` yourself. You are told when it finishes, so there is no need to poll or sleep. In print mode the
  run waits for background commands before it ends, each at most its \`timeout\` from its start.
- Commands are checked against the user's permission rules before they run; commands that run other code
  (sh -c, eval, xargs, find -exec) always need the user's approval. When a sandbox is on, commands run with
  the filesystem read-only outside the project and network limited to allowed domains; only if a command
  fails because of the sandbox, retry with \`dangerouslyDisableSandbox: true\` (the user is asked each time).
- Write a short \`description\` of what the command does (5–10 words), e.g. "Install project dependencies".
- Platform: ${ctx.platform}.`;
}
