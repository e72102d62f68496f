/**
 * The `glob` parameter of Grep, applied here rather than with rg's `--glob`: in rg a matching
 * `--glob` re-includes files that .gitignore excludes (`--glob '*.js'` would search an ignored
 * bundle.js), and rg matches globs relative to its own working directory, which is not the one the
 * model sees. Here a glob is matched against the path exactly as the results show it:
 *
 * - a glob without `/` matches the file name at any depth (`*.ts`, `*.{ts,tsx}`);
 * - a glob with `/` matches the whole shown path (`src/**\/*.ts`, `**\/test/*.py`);
 * - a glob starting with `!` excludes, matching the file or any folder above it (`!**\/fixtures`).
 *
 * rg still does the heavy pruning: the file-name part of the globs becomes a rg file type
 * (`--type-add`), which narrows the search without overriding ignore rules. See `pruneTypeArgs`.
 */
import picomatch from 'picomatch';

/**
 * The `glob` parameter may hold several globs: separated by spaces, or by commas outside braces
 * (`*.ts,*.tsx` is two globs; `*.{ts,tsx}` is one).
 */
export function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  const out: string[] = [];
  for (const word of glob.trim().split(/\s+/)) {
    if (word === '') continue;
    if (word.includes('{')) out.push(word);
    else out.push(...word.split(',').filter((g) => g !== ''));
  }
  return out;
}

type Matcher = (p: string) => boolean;

function matcherFor(globs: string[]): Matcher | undefined {
  const names = globs.filter((g) => !g.replace(/\/+$/, '').includes('/'));
  const paths = globs.filter((g) => !names.includes(g)).map((g) => g.replace(/^\//, ''));
  const byName = names.length ? picomatch(names, { dot: true }) : undefined;
  const byPath = paths.length ? picomatch(paths, { dot: true }) : undefined;
  if (!byName && !byPath) return undefined;
  return (p) => {
    if (byPath?.(p)) return true;
    return byName !== undefined && byName(p.slice(p.lastIndexOf('/') + 1));
  };
}

/** Every folder above a path and the path itself: `a/b/c` → `a`, `a/b`, `a/b/c`. */
function* selfAndParents(p: string): Generator<string> {
  let i = p.indexOf('/', 1);
  while (i !== -1) {
    yield p.slice(0, i);
    i = p.indexOf('/', i + 1);
  }
  yield p;
}

/** A predicate over shown paths, or undefined when the parameter filters nothing. */
export function globFilter(glob: string | undefined): Matcher | undefined {
  const globs = splitGlobs(glob);
  if (globs.length === 0) return undefined;
  const include = matcherFor(globs.filter((g) => !g.startsWith('!')));
  const exclude = matcherFor(globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1)));
  return (p) => {
    if (include && !include(p)) return false;
    if (exclude) for (const part of selfAndParents(p)) if (exclude(part)) return false;
    return true;
  };
}

/** rg's name for the file type built from the globs. */
const PRUNE_TYPE = 'wicketglob';

/**
 * `--type-add`/`--type` arguments that let rg skip files no include glob can match, by file name:
 * `*.ts` → `*.ts`; `src/**\/*.{js,jsx}` → `*.{js,jsx}`. Returns none when any include glob could
 * match any name (`src/**`), or when the model passed `type` (rg would take the union of both types).
 */
export function pruneTypeArgs(glob: string | undefined, type: string | undefined): string[] {
  if (type) return [];
  const includes = splitGlobs(glob).filter((g) => !g.startsWith('!'));
  if (includes.length === 0) return [];
  const names: string[] = [];
  for (const g of includes) {
    const name = g.slice(g.lastIndexOf('/') + 1);
    const balanced = name.split('{').length === name.split('}').length;
    if (!balanced || name === '' || name.includes('**') || name.startsWith('include:') || /^\*+$/.test(name)) return [];
    names.push(name);
  }
  return [...names.map((n) => `--type-add=${PRUNE_TYPE}:${n}`), `--type=${PRUNE_TYPE}`];
}
