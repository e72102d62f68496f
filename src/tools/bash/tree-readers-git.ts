/**
 * git commands that print what files hold, from the work tree or from the repository's history:
 * `git grep` and `git archive` (the work tree), and the ones that print blobs and patches —
 * `show`, `diff`, `log -p`, `format-patch`, `cat-file`, `stash show -p`, `blame`, `fast-export`…
 * — and the ones that write it out elsewhere (`clone`, `worktree add`, `checkout-index`, any command
 * given another work tree or repository by `--work-tree`, `--git-dir` or `GIT_*` variables).
 * A denied file that was ever staged or committed is in the history, which no file rule and no
 * sandbox mount hides, so these count as reading every file of the work tree (or, for the
 * patch printers, only the paths named after `--` or on disk).
 */
import { literalWord, type Word } from './words.js';
import type { Reader, TreeRead, TreeRoot } from './tree-read-kit.js';

/** Print patches or blobs whatever the options (`show REV:path` only the paths it names). */
const ALWAYS = new Set(['show', 'cat-file', 'format-patch', 'fast-export', 'bundle', 'archive', 'blame', 'annotate', 'difftool', 'range-diff', 'am', 'notes']);
/** Write what the repository holds to files elsewhere, under names no rule spells (`../wt/.env`). */
const COPIES = new Set(['clone', 'worktree', 'checkout-index', 'unpack-file']);
/** Variables that point git at another work tree, index or object store. */
const ELSEWHERE_VARS = /\bGIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR)=/;
/** Print patches unless only names or stats are asked for. */
const DIFFS = new Set(['diff', 'diff-tree', 'diff-index', 'diff-files']);
/** Print patches only with a patch option (or search content with -S/-G). */
const HISTORY = new Set(['log', 'whatchanged', 'reflog', 'stash', 'show-branch']);
const PATCH =
  /^(-p|-u|-[A-Za-z]*p[A-Za-z]*|--patch.*|--cc|-c|-m|--word-diff.*|--color-words.*|--full-diff|--binary|--textconv|--ext-diff|--diff-merges=.*|-[LSG].*|--pickaxe.*|--find-object=.*)$/;
const NAMES_ONLY = /^(--stat.*|--numstat|--shortstat|--name-only|--name-status|--dirstat.*|--summary|--quiet|-s|--no-patch|--raw)$/;
/** Global options taking a value (`git -C dir`, `git -c k=v`). */
const GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

export const git: Reader = (words, leaf) => {
  let i = 1;
  let from: Word | undefined;
  let elsewhere = ELSEWHERE_VARS.test(leaf.source.text) || leaf.source.assignments.some((w) => ELSEWHERE_VARS.test(w.value));
  for (; i < words.length && words[i]!.value.startsWith('-'); i++) {
    const v = words[i]!.value;
    if (v === '-C') from = words[++i];
    else if (/^--(git-dir|work-tree)(=|$)/.test(v)) {
      elsewhere = true;
      if (!v.includes('=')) i++;
    } else if (GLOBAL_VALUES.has(v)) i++;
  }
  const sub = words[i]?.value;
  if (sub === undefined) return undefined;
  const rest = words.slice(i + 1);
  const repo: TreeRoot = from ? { repo: true, from } : { repo: true };
  const label = `git ${sub}`;
  // Another work tree, index or repository: whatever the command, it may print or write out what
  // the history holds under names no rule spells, or read a repository not looked at here.
  if (elsewhere)
    return {
      label,
      roots: [],
      followLinks: false,
      unknown: `${label} works on a repository or work tree named by --git-dir, --work-tree or GIT_* variables, which may hold denied files`,
      history: true,
    };
  if (sub === 'grep') return grep(rest, repo, from);
  if (COPIES.has(sub) && (sub !== 'worktree' || rest.some((w) => w.value === 'add'))) return { label, roots: [repo], followLinks: false, history: true };
  if (!printsContent(sub, rest)) return undefined;
  const roots = pathsLimit(sub, rest, from) ?? [repo];
  return { label, roots, followLinks: false, history: true, ...(workTreeDiff(sub, rest) ? { trackedOnly: true } : {}) };
};

/** Options by which `git diff` compares anything but the index with the work tree, or shows a submodule's files. */
const OTHER_SIDES = /^(--cached|--staged|--no-index|--merge-base|--submodule)(=|$)/;

/**
 * A plain `git diff` (options aside): the work tree against the index, so only files git tracks
 * can show. Any word before `--` may be a revision (history), and then it is not plain.
 */
function workTreeDiff(sub: string, rest: Word[]): boolean {
  if (sub !== 'diff' && sub !== 'diff-files') return false;
  const dash = rest.findIndex((w) => w.value === '--');
  const before = dash >= 0 ? rest.slice(0, dash) : rest;
  return before.every((w) => w.literal && w.value.startsWith('-') && !OTHER_SIDES.test(w.value));
}

function printsContent(sub: string, rest: Word[]): boolean {
  if (ALWAYS.has(sub)) return true;
  const opts = rest.map((w) => w.value).filter((v) => v.startsWith('-'));
  if (DIFFS.has(sub)) return opts.some((v) => PATCH.test(v)) || !opts.some((v) => NAMES_ONLY.test(v));
  if (HISTORY.has(sub)) return opts.some((v) => PATCH.test(v));
  return false;
}

/**
 * The paths a patch printer is limited to: those after `--` when nothing else is named, or operands
 * that all exist on disk. A revision named beside them may be a blob, which prints in full.
 */
function pathsLimit(sub: string, rest: Word[], from: Word | undefined): TreeRoot[] | undefined {
  const at = (word: Word): TreeRoot => (from ? { word, cwd: from } : { word });
  // `git show HEAD:src/a.txt`: only the files named (a denied one is refused as a mention).
  const operands = rest.filter((w) => !w.value.startsWith('-'));
  if (sub === 'show' && operands.length && operands.every((w) => w.literal && /^[^:\s]*:(?:\d:)?[^:]+$/.test(w.value)))
    return operands.map((w) => at(literalWord(w.value.replace(/^[^:]*:(?:\d:)?/, ''))));
  if (!DIFFS.has(sub) && !HISTORY.has(sub) && sub !== 'format-patch') return undefined;
  const dash = rest.findIndex((w) => w.value === '--');
  const before = (dash >= 0 ? rest.slice(0, dash) : rest).filter((w) => !w.value.startsWith('-'));
  const specs = dash >= 0 ? rest.slice(dash + 1) : [];
  if (before.length || !specs.length || specs.some((w) => !w.literal || /^:|[*?[]/.test(w.value))) return undefined;
  return specs.map(at);
}

function grep(rest: Word[], repo: TreeRoot, from: Word | undefined): TreeRead {
  const dash = rest.findIndex((w) => w.value === '--');
  const specs = dash >= 0 ? rest.slice(dash + 1) : [];
  // A revision searches the history too: every file it ever held.
  const revs = (dash >= 0 ? rest.slice(0, dash) : rest).filter((w) => !w.value.startsWith('-')).length > 1;
  if (!specs.length || revs) return { label: 'git grep', roots: [repo], followLinks: false, history: revs };
  return { label: 'git grep', roots: specs.map((word) => (from ? { word, cwd: from } : { word })), followLinks: false };
}
