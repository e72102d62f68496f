/**
 * The vocabulary of instruction files (CLAUDE.md and what Claude Code reads beside it): what one
 * loaded file is, why a file was left out, and why a file was given to the model.
 */

/** Claude Code's memory types: the `memory_type` of InstructionsLoaded hooks, and the label the model reads. */
export type MemoryType = 'Managed' | 'User' | 'Project' | 'Local' | 'AutoMem';

/** Why a file was given: the `load_reason` of InstructionsLoaded hooks. */
export type LoadReason = 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include' | 'compact';

export interface InstructionFile {
  /** The path the model reads in `Contents of <path>`: as found (a rule: its real path). */
  path: string;
  type: MemoryType;
  /** The text given to the model: front matter and HTML comment blocks taken out. */
  content: string;
  /** The file whose `@` import brought this one in. */
  parent?: string;
  /** A rule's `paths:` front matter: the rule is given once a matching file is touched. */
  globs?: string[];
  /** Read from a `.claude/rules/` folder. */
  rule?: boolean;
  /** An AGENTS.md read in place of (or beside) CLAUDE.md. */
  agents?: boolean;
}

/** A file that was not loaded, and why (for `wicket config` and /memory). */
export interface SkippedFile {
  path: string;
  reason: string;
  /** The file whose import named it. */
  parent?: string;
  /** A Read deny rule covers it: the model is told that the file was left out. */
  denied?: boolean;
  /** An import from outside the working directory, left out until the person approves such imports. */
  external?: boolean;
}

/** What one discovery found: the files in the order the model gets them, and those left out. */
export interface Discovery {
  files: InstructionFile[];
  skipped: SkippedFile[];
}

/** A file's `load_reason` when it comes with the start (`eager`), or on a touch (`nested_traversal`). */
export function loadReasonOf(file: InstructionFile, eager: LoadReason): LoadReason {
  if (eager === 'nested_traversal') return file.globs ? 'path_glob_match' : file.parent ? 'include' : 'nested_traversal';
  return file.parent ? 'include' : eager;
}
