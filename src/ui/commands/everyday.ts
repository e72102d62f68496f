/**
 * The commands a Claude Code user types without thinking: /diff (what changed, file by file),
 * /copy [N] (an answer to the clipboard), /review and /security-review (built-in prompts over the
 * current diff), /btw (a side question that does not enter the conversation), /statusline (a prompt
 * that sets the status line up) and /terminal-setup (Shift+Enter for a new line, terminal-setup.ts).
 */
import { spawnSync } from 'node:child_process';
import type { ApiMessage, ContentBlock } from '../../base/events.js';
import { copyToClipboard } from '../clipboard-write.js';
import { terminalSetup } from '../terminal-setup.js';
import { rewinderFor } from '../rewind-preview.js';
import { displayPath } from '../../tools/fs/permissions.js';
import type { CommandResult, SessionControl, SlashCommand } from './types.js';

const MAX_DIFF_LINES = 400;

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync('git', ['-c', 'core.quotepath=off', ...args], { cwd, encoding: 'utf8', timeout: 10_000, maxBuffer: 32 * 1024 * 1024 });
  return { ok: !r.error && r.status === 0, out: r.stdout ?? '' };
}

/** The working tree against HEAD (staged and not), and the files git does not track yet. */
export function currentDiff(cwd: string): { stat: string; diff: string; untracked: string[] } | { error: string } {
  if (!git(cwd, ['rev-parse', '--is-inside-work-tree']).ok) return { error: `${cwd} is not in a git repository: /diff shows the changes git sees.` };
  const base = git(cwd, ['rev-parse', '--verify', '-q', 'HEAD']).ok ? ['HEAD'] : ['--cached'];
  const stat = git(cwd, ['diff', '--no-color', '--stat', ...base]).out.trimEnd();
  const diff = git(cwd, ['diff', '--no-color', ...base]).out.trimEnd();
  const untracked = git(cwd, ['ls-files', '--others', '--exclude-standard']).out.split('\n').filter(Boolean);
  return { stat, diff, untracked };
}

const diffCommand: SlashCommand = {
  name: 'diff',
  description: 'Show what changed: uncommitted changes (or, outside git, the session’s), file by file, with their diff',
  source: 'builtin',
  run(_args, s) {
    const d = currentDiff(s.options.state.cwd);
    if ('error' in d) return sessionDiff(s);
    if (!d.diff && !d.untracked.length) return { kind: 'info', text: 'No changes: the working tree is as committed.' };
    const parts = [
      d.stat,
      d.untracked.length ? `New files not yet tracked:\n${d.untracked.map((f) => `  ${f}`).join('\n')}` : '',
      d.diff ? capped(d.diff, 'git diff') : '',
    ];
    return { kind: 'info', text: parts.filter(Boolean).join('\n\n') };
  },
};

function capped(diff: string, whole?: string): string {
  const lines = diff.split('\n');
  const more = `… ${lines.length - MAX_DIFF_LINES} more lines${whole ? ` (${whole} shows them all)` : ''}`;
  return lines.length > MAX_DIFF_LINES ? [...lines.slice(0, MAX_DIFF_LINES), more].join('\n') : diff;
}

/** Outside git: what the session changed since its first checkpoint, from wicket's snapshots and file history. */
async function sessionDiff(s: SessionControl): Promise<CommandResult> {
  const cwd = s.options.state.cwd;
  const rewinder = rewinderFor(s.options);
  if (!rewinder)
    return { kind: 'info', tone: 'warning', text: `${cwd} is not in a git repository, and file checkpointing is off: /diff has nothing to compare with.` };
  if (s.firstCheckpoint === undefined) return { kind: 'info', text: 'No changes: nothing has changed the files in this session yet.' };
  const [plan, diff] = await Promise.all([rewinder.plan(s.firstCheckpoint), rewinder.diffSince(s.firstCheckpoint, (p) => displayPath(p, cwd)).catch(() => '')]);
  if (!plan.ok) return { kind: 'info', tone: 'warning', text: `Cannot show the session's changes: ${plan.reason}` };
  if (!plan.files.length) return { kind: 'info', text: 'No changes: the files are as they were when the session began.' };
  const rows = plan.files.map((f) => {
    const counts = f.mode && f.added === undefined ? f.mode : `+${f.added ?? '?'} -${f.removed ?? '?'}${f.mode ? ` ${f.mode}` : ''}`;
    const what = f.action === 'delete' ? 'new' : f.action === 'unknown' ? 'changed' : counts;
    return `  ${displayPath(f.path, cwd)}  ${what}`;
  });
  const head = `Changed in this session (not a git repository; from wicket's snapshots), ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}:`;
  return { kind: 'info', text: [`${head}\n${rows.join('\n')}`, diff ? capped(diff) : ''].filter(Boolean).join('\n\n') };
}

/** The text of the model's answers, last first. */
export function answers(messages: readonly ApiMessage[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const text = typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    if (text.trim()) out.push(text.trim());
  }
  return out.reverse();
}

const copyCommand: SlashCommand = {
  name: 'copy',
  argumentHint: '[N]',
  description: "Copy wicket's last answer (or the Nth latest) to the clipboard",
  source: 'builtin',
  run(args, s) {
    const n = args.trim() ? Number(args.trim()) : 1;
    if (!Number.isInteger(n) || n < 1)
      return { kind: 'info', tone: 'warning', text: `/copy takes a number: /copy 2 copies the answer before the last. (${args.trim()})` };
    const all = answers(s.messages ?? []);
    const text = all[n - 1];
    if (!text) return { kind: 'info', tone: 'warning', text: all.length ? `There are only ${all.length} answers to copy.` : 'Nothing to copy yet.' };
    const how = copyToClipboard(text, s.options.env, (seq) => process.stdout.write(seq));
    return { kind: 'info', text: `Copied ${n === 1 ? 'the last answer' : `answer ${n} from the end`} (${text.length} characters) to the clipboard (${how}).` };
  },
};

const GIT_READ = ['Bash(git diff:*)', 'Bash(git status:*)', 'Bash(git log:*)', 'Bash(git show:*)', 'Read', 'Glob', 'Grep'];

const REVIEW = `You are an expert code reviewer. Review the current changes in this repository (run git status and git diff HEAD, and read the files around the changes as needed).
Give a thorough review:
- an overview of what the changes do
- correctness: bugs, edge cases, error handling
- code quality, naming and structure, and whether it follows the project's conventions
- tests: what is covered and what is missing
- performance and security concerns, if any
Be specific: name the file and line, and suggest the fix. Do not change any file.`;

const SECURITY_REVIEW = `You are a senior security engineer. Do a security review of the current changes in this repository (run git status and git diff HEAD, and read the code around the changes as needed).
Look only for vulnerabilities the changes introduce, with high confidence:
- injection (command, SQL, path traversal, template), unsafe deserialization
- authentication and authorization flaws, secrets in code or logs
- unsafe file or network handling, SSRF, missing validation of untrusted input
- cryptographic misuse and insecure defaults
For each finding give the file and line, the severity (high, medium, low), how it could be exploited, and the fix. Leave out theoretical issues and style. If there is nothing, say so. Do not change any file.`;

const reviewCommand: SlashCommand = {
  name: 'review',
  argumentHint: '[what to focus on]',
  description: 'Review the current changes (a built-in prompt over git diff)',
  source: 'builtin',
  run: (args) => ({ kind: 'prompt', text: args.trim() ? `${REVIEW}\nFocus on: ${args.trim()}` : REVIEW, allowedTools: GIT_READ }),
};

const securityReviewCommand: SlashCommand = {
  name: 'security-review',
  description: 'A security review of the current changes',
  source: 'builtin',
  run: (args) => ({ kind: 'prompt', text: args.trim() ? `${SECURITY_REVIEW}\nFocus on: ${args.trim()}` : SECURITY_REVIEW, allowedTools: GIT_READ }),
};

/** The conversation with a side question at the end (joined to a last user message, as the API wants turns to alternate). */
export function withSideQuestion(messages: readonly ApiMessage[], question: string): ApiMessage[] {
  const ask: ContentBlock = {
    type: 'text',
    text: `<side-question>${question}</side-question>\nThis is a side question: answer it briefly from what you already know of this conversation and project, without tools. It does not change the task at hand.`,
  };
  const out = [...messages];
  const last = out.at(-1);
  if (last?.role === 'user') {
    const blocks: ContentBlock[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    out[out.length - 1] = { role: 'user', content: [...blocks, ask] };
  } else out.push({ role: 'user', content: [ask] });
  return out;
}

async function sideAnswer(question: string, s: SessionControl): Promise<CommandResult> {
  const o = s.options;
  const stream = o.client.stream(
    { model: o.model, system: o.system, messages: withSideQuestion(s.messages ?? [], question), tools: [], maxTokens: 2048 },
    AbortSignal.timeout(120_000),
  );
  try {
    let step = await stream.next();
    while (!step.done) step = await stream.next();
    const text = step.value.content
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('')
      .trim();
    return { kind: 'info', text: `/btw ${question}\n${text || '(no answer)'}` };
  } catch (err) {
    return { kind: 'info', tone: 'warning', text: `/btw could not get an answer: ${(err as Error).message}` };
  }
}

const btwCommand: SlashCommand = {
  name: 'btw',
  argumentHint: '<question>',
  description: 'Ask a side question; neither it nor the answer enters the conversation',
  source: 'builtin',
  run(args, s) {
    const q = args.trim();
    if (!q) return { kind: 'info', tone: 'warning', text: 'Usage: /btw <question>' };
    return sideAnswer(q, s);
  },
};

const statuslineCommand: SlashCommand = {
  name: 'statusline',
  argumentHint: '[what to show]',
  description: "Set up the status line under the prompt (from your shell's prompt, or as you describe it)",
  source: 'builtin',
  run: (args, s) => ({
    kind: 'prompt',
    text: `Set up my status line for wicket.
- It is the statusLine setting in ${s.configDir}/settings.json: {"statusLine": {"type": "command", "command": "<a shell command>", "padding": 0}}. Keep the file's other settings.
- The command gets the session as JSON on stdin (model.display_name, workspace.current_dir, cost.total_cost_usd, session_id, transcript_path) and prints one line (ANSI colours are fine); a script in ${s.configDir}/ is best for anything long.
- ${args.trim() ? `Show: ${args.trim()}` : "Base it on my shell prompt: read PS1 from ~/.bashrc or ~/.zshrc (or the prompt theme they load) and reproduce it, without the trailing '$' or '>'."}
Tell me what you set when done.`,
    allowedTools: ['Read', 'Bash(cat:*)', 'Bash(grep:*)', 'Bash(echo:*)'],
  }),
};

const terminalSetupCommand: SlashCommand = {
  name: 'terminal-setup',
  description: 'Install Shift+Enter key binding for newlines',
  source: 'builtin',
  run: async (_args, s) => ({ kind: 'info', text: await terminalSetup(s.options.env, { home: s.options.homeDir, platform: process.platform }) }),
};

export const EVERYDAY_COMMANDS: SlashCommand[] = [
  diffCommand,
  copyCommand,
  reviewCommand,
  securityReviewCommand,
  btwCommand,
  statuslineCommand,
  terminalSetupCommand,
];
