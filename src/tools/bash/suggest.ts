/**
 * The rules a person's "yes, don't ask again" would add: for each command of the line that needs
 * approval, the narrowest useful prefix rule (`npm run test:unit -- --watch` → `Bash(npm run test:unit:*)`,
 * `git commit -m "x"` → `Bash(git commit:*)`). Destructive commands get the exact command instead of a
 * prefix. Nothing is suggested for commands no rule may approve (`sh -c`, `eval`, `xargs`…), for
 * commands that run the command they are given (`sudo`, `env`, `npx`, `docker run`), or for bare
 * interpreters, shells and network tools, whose one-word prefix would approve anything; a verb that
 * runs a program (`uv run pytest`) takes the program into the prefix. A compound line gets one rule
 * per command, each matched on its own: no rule approves a whole compound.
 */
import path from 'node:path';
import type { Analysis, Leaf } from './analysis.js';
import { isReadOnlyLeaf } from './classify.js';
import { joinPatterns } from './words.js';

const MAX_SUGGESTIONS = 5;
const PLAIN = /^[A-Za-z0-9_@][\w.:@/+=-]*$/;
/** Tools whose second word picks a script: `npm run build`, `yarn run lint`. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SCRIPT_VERBS = new Set(['run', 'run-script', 'exec', 'x', 'dlx']);
/** Never suggest a rule made of these alone: it would approve anything. */
const TOO_BROAD = new Set([
  'python',
  'python3',
  'python2',
  'node',
  'deno',
  'bun',
  'ruby',
  'perl',
  'php',
  'lua',
  'sudo',
  'doas',
  'su',
  'env',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'docker',
  'podman',
  'kubectl',
  'ssh',
  'osascript',
  // They fetch and send anywhere, and write where they are told.
  'curl',
  'wget',
  'nc',
  'ncat',
  'socat',
  // Shells: any script, any option.
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
]);
/** Commands that run the command given as their arguments: no prefix of theirs is ever suggested. */
const COMMAND_RUNNERS = new Set(['sudo', 'doas', 'su', 'env', 'xargs', 'npx', 'bunx', 'pnpx', 'uvx', 'ssh', 'eval', 'exec', 'parallel', 'watch']);
/**
 * A verb that runs a program named next (`uv run pytest`, `bundle exec rspec`): the prefix takes
 * that program too. `null`: the verb runs whatever it is given (a container, a pod), so no prefix.
 */
const PROGRAM_VERBS: Record<string, Record<string, 'program' | null>> = {
  uv: { run: 'program' },
  poetry: { run: 'program' },
  pipenv: { run: 'program' },
  pdm: { run: 'program' },
  hatch: { run: 'program' },
  bundle: { exec: 'program' },
  go: { run: 'program' },
  deno: { run: 'program' },
  docker: { run: null, exec: null, compose: 'program' },
  podman: { run: null, exec: null },
  kubectl: { exec: null, run: null, debug: null },
};
/** `docker compose <verb>`: these run a command in a container. */
const COMPOSE_RUNS = new Set(['run', 'exec']);
const DESTRUCTIVE = new Set(['rm', 'rmdir', 'mv', 'dd', 'shred', 'truncate', 'kill', 'pkill', 'killall', 'chmod', 'chown']);

export function suggestRules(analysis: Analysis): string[] {
  if (analysis.problems.length) return [];
  const out: string[] = [];
  for (const leaf of analysis.leaves) {
    if (leaf.denyOnly || leaf.nested || isReadOnlyLeaf(leaf)) continue;
    const rule = suggestionFor(leaf);
    if (rule === undefined) return [];
    if (!out.includes(rule)) out.push(rule);
  }
  return out.length <= MAX_SUGGESTIONS ? out : [];
}

function suggestionFor(leaf: Leaf): string | undefined {
  if (leaf.allowPattern === undefined || leaf.allowPattern !== joinPatterns(leaf.words)) return undefined;
  const words = leaf.words;
  const name = path.posix.basename(words[0]!.value);
  if (DESTRUCTIVE.has(name)) {
    const exact = words.every((w) => w.literal && !/[()*]/.test(w.value) && !/\s/.test(w.value));
    return exact ? `Bash(${words.map((w) => w.value).join(' ')})` : undefined;
  }
  if (COMMAND_RUNNERS.has(name)) return undefined;
  const verb = PROGRAM_VERBS[name]?.[words[1]?.value ?? ''];
  if (verb === null || (name === 'docker' && words[1]?.value === 'compose' && COMPOSE_RUNS.has(words[2]?.value ?? ''))) return undefined;
  const limit = verb || (SCRIPT_RUNNERS.has(name) && SCRIPT_VERBS.has(words[1]?.value ?? '')) ? 3 : 2;
  const prefix: string[] = [];
  for (const w of words) {
    if (prefix.length >= limit || !w.literal || !PLAIN.test(w.value) || (prefix.length > 0 && w.value.startsWith('-'))) break;
    prefix.push(w.value);
  }
  if (!prefix.length || (verb && prefix.length < 3)) return undefined;
  if (prefix.length === 1 && TOO_BROAD.has(name)) return undefined;
  return `Bash(${prefix.join(' ')}:*)`;
}
