/**
 * One instruction file and, depth first, the files it imports with `@path` — as Claude Code reads
 * them: five levels at most (the file and four levels of imports), each file once (an import cycle
 * stops where it closes), a project file's imports only inside the working directory unless the
 * person approved imports from outside (the user's own file may import from anywhere), text files
 * only, never past a Read deny rule, and a file that is empty once its comments are gone left out.
 */
import { readFileSync, realpathSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../base/paths.js';
import { excludeMatcher } from './excludes.js';
import { resolveImports, splitFrontMatter } from './markdown.js';
import { lexedParts } from './lexed-cache.js';
import type { InstructionFile, MemoryType, SkippedFile } from './types.js';

/** Files at this depth (the first file is 0) are not read. */
export const MAX_IMPORT_DEPTH = 5;
/** Larger files are left out. */
const MAX_BYTES = 4 * 1024 * 1024;

/** The extensions an import may have (Claude Code's list); a file without one is read too. */
const TEXT_EXTENSIONS = new Set(
  (
    '.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb ' +
    '.erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf ' +
    '.config .properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r .dart .ex .exs .erl .hrl ' +
    '.clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex ' +
    '.lock .log .diff .patch'
  ).split(' '),
);

export interface ReadContext {
  cwd: string;
  home: string;
  /** Paths already read (as found and real): a file is given once, and an import cycle stops. */
  processed: Set<string>;
  /** `claudeMdExcludes`: whether a User, Project or Local file is left out. */
  excluded: (file: string, type: MemoryType) => boolean;
  /** The Read deny rule that covers a path (as written), if one does. */
  deniedBy: (file: string) => string | undefined;
  /** The person approved imports from outside the working directory (Claude Code's per-project flag). */
  externalApproved: boolean;
  /** The person was asked and said no: the note on each import left out says so. */
  externalDeclined?: boolean;
  /** Where files left out are noted. */
  skipped: SkippedFile[];
  /** Where what lexing a file gave is kept (lexed-cache.ts); none: lexed each time. */
  lexCacheDir?: string;
}

/** A fresh context for one pass over the instruction files (nothing read yet). */
export function readContext(
  o: { cwd: string; home: string; excludes?: unknown; deniedBy: (file: string) => string | undefined; lexCacheDir?: string; externalDeclined?: boolean },
  externalApproved: boolean,
  skipped: SkippedFile[] = [],
): ReadContext {
  const base = {
    cwd: o.cwd,
    home: o.home,
    processed: new Set<string>(),
    excluded: excludeMatcher(o.excludes),
    deniedBy: o.deniedBy,
    externalApproved,
    ...(o.externalDeclined ? { externalDeclined: true } : {}),
    skipped,
  };
  return o.lexCacheDir ? { ...base, lexCacheDir: o.lexCacheDir } : base;
}

export interface ReadHow {
  depth?: number;
  parent?: string;
  /** May import from outside the working directory (default: the user's file, or when approved). */
  external?: boolean;
}

export function readInstructionFile(file: string, type: MemoryType, ctx: ReadContext, how: ReadHow = {}): InstructionFile[] {
  const depth = how.depth ?? 0;
  const parent = how.parent;
  const found = path.resolve(file);
  const skip = (reason: string, extra: Partial<SkippedFile> = {}) => ctx.skipped.push({ path: found, reason, ...(parent ? { parent } : {}), ...extra });
  if (ctx.processed.has(found)) {
    if (depth > 0) skip('already loaded (imported again, or an import cycle)');
    return [];
  }
  const at = locate(found);
  if (at === undefined) {
    if (depth > 0) skip(notFound(found));
    return [];
  }
  if (depth >= MAX_IMPORT_DEPTH) return skipped(skip, `imported more than ${MAX_IMPORT_DEPTH - 1} levels deep`);
  if (ctx.excluded(found, type)) return skipped(skip, 'left out by claudeMdExcludes');
  const external = how.external ?? (type === 'User' || ctx.externalApproved);
  const { real, stat } = at;
  if (depth > 0 && !external && !isInside(real, ctx.cwd)) return skipped(skip, outsideReason(ctx), { external: true });
  if (ctx.processed.has(real)) return [];
  ctx.processed.add(found);
  const rule = ctx.deniedBy(found) ?? (real !== found ? ctx.deniedBy(real) : undefined);
  if (rule) return skipped(skip, `a Read deny rule covers it (${rule})`, { denied: true });
  ctx.processed.add(real);
  const text = readText(found, real, stat, skip);
  if (text === undefined) return [];
  const { content: body, globs } = splitFrontMatter(text);
  const { content, imports } = lexedParts(body, ctx.lexCacheDir);
  if (!content.trim()) return [];
  const out: InstructionFile[] = [{ path: found, type, content, ...(parent ? { parent } : {}), ...(globs ? { globs } : {}) }];
  for (const target of resolveImports(imports, found, ctx.home)) {
    if (!external && !isInside(target, ctx.cwd)) {
      ctx.skipped.push({ path: target, reason: outsideReason(ctx), parent: found, external: true });
      continue;
    }
    out.push(...readInstructionFile(target, type, ctx, { depth: depth + 1, parent: found, external }));
  }
  return out;
}

/** Why an import from outside the working directory was left out: not approved yet, or declined. */
export function outsideReason(ctx: ReadContext): string {
  return ctx.externalDeclined
    ? 'outside the working directory: imports from outside it were declined for this project (hasClaudeMdExternalIncludesApproved: false in ~/.claude.json)'
    : 'outside the working directory: imports from outside it need approval, which the app asks for once per project (hasClaudeMdExternalIncludesApproved in ~/.claude.json)';
}

/** Why an import names nothing: a trailing punctuation mark is part of the path, as Claude Code reads it. */
function notFound(file: string): string {
  const mark = /[,.;:)\]]$/.exec(file)?.[0];
  return mark && locate(file.slice(0, -1)) ? `not found (the "${mark}" after it is part of the path; ${file.slice(0, -1)} exists)` : 'not found';
}

function skipped(skip: (reason: string, extra?: Partial<SkippedFile>) => void, reason: string, extra?: Partial<SkippedFile>): [] {
  skip(reason, extra);
  return [];
}

/** The file's real path and what stat says of it (links followed); undefined when there is nothing there (asked without an exception: most files looked for are missing). */
function locate(file: string): { real: string; stat: Stats } | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return undefined;
  try {
    return { real: realpathSync.native(file), stat };
  } catch {
    return undefined;
  }
}

/** The file's text, or undefined (and a note) when it is not a text file, not a regular file, too large or unreadable. */
function readText(found: string, real: string, st: Stats, skip: (reason: string) => void): string | undefined {
  const ext = path.extname(found).toLowerCase();
  if (ext && !TEXT_EXTENSIONS.has(ext)) {
    skip('not a text file');
    return undefined;
  }
  if (!st.isFile()) {
    if (!st.isDirectory()) skip('not a regular file');
    return undefined;
  }
  if (st.size > MAX_BYTES) {
    skip('larger than 4 MB');
    return undefined;
  }
  try {
    return readFileSync(real, 'utf8');
  } catch (err) {
    skip(`unreadable (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    return undefined;
  }
}
