/**
 * What the Bash analyzer (analyze.ts) produces, and what the routes of programs that run other
 * programs (routes.ts and its tables) may ask of it while it walks a command line.
 */
import type { SimpleCommand } from './parse.js';
import type { Stdin } from './stdin.js';
import type { Word } from './words.js';
import type { WrapperSpec } from './wrappers.js';

export interface Leaf {
  /** The command that runs, name first, after unwrapping. */
  words: Word[];
  /** Text an allow rule must cover; undefined when no rule may approve this command. */
  allowPattern?: string;
  /** Texts deny and ask rules are tried against (the command and every wrapper around it). */
  denyPatterns: string[];
  /** Why the command runs code it is given (sh -c, eval, xargs…): always asks. */
  runsCode?: string;
  /** A file whose content runs as shell code (`bash x.sh`, `. ./env.sh`, `sh < x.sh`); read by match.ts. */
  scriptFile?: Word;
  /** Came from a code string rather than the command line itself. */
  nested: boolean;
  /** A guess at what a wrapper runs, kept only for deny and ask matching. */
  denyOnly: boolean;
  source: SimpleCommand;
}

export interface Analysis {
  leaves: Leaf[];
  /** Why the command's effect cannot be read statically. Empty when it can. */
  problems: string[];
  /** Targets of output redirections that write files (/dev/null and friends left out). */
  writes: Word[];
  /** Variables assigned anywhere, prefix assignments included. */
  assigned: string[];
  /** The parsed simple commands of the command line itself (not of nested code). */
  commands: SimpleCommand[];
}

export interface Frame {
  outer: string[];
  allowPrefix: string[];
  allow: boolean;
  nested: boolean;
  denyOnly: boolean;
  depth: number;
  source: SimpleCommand;
  /** The stdin of the code this command belongs to (what a shell reading stdin would run). */
  stdin: Stdin;
  /** The script has a pipe somewhere: a command not linked to one may still be fed by it. */
  piped: boolean;
}

/** What a route (routes.ts) may ask of the analyzer. */
export interface Walk {
  /** Analyse words as a command of its own (wrappers unwrapped, routes followed). */
  words(words: Word[], frame: Frame): void;
  leaf(words: Word[], frame: Frame, views: string[], runsCode?: string, scriptFile?: Word): void;
  wrapper(words: Word[], spec: WrapperSpec, frame: Frame, inner: Frame, views: string[]): void;
  /** Options not understood: every later argument tried as the start of a command (deny/ask only). */
  suffixes(words: Word[], frame: Frame): void;
  /** Literal words joined with spaces and run as shell code; a non-literal one is a problem. */
  code(args: Word[], frame: Frame, who: string): void;
  /** Shell code text, run with the stdin of `frame`'s command. */
  script(source: string, frame: Frame): void;
  /** The command reads shell code on its stdin. */
  stdinCode(frame: Frame, who: string): void;
  /** The stdin of `frame`'s command. */
  stdin(frame: Frame): Stdin;
  /**
   * A file a shell, `source` or `at -f` runs as code: stdin aliases and descriptors are followed to
   * what feeds them; a regular file is returned (match.ts reads it); anything else is a problem.
   */
  codeFile(word: Word, frame: Frame, who: string): Word | undefined;
  /** A word that is data, which some programs turn into code (`GIT_PAGER=…`, `'a[$(cmd)]'`). */
  dataWord(word: Word, frame: Frame): void;
  problem(text: string): void;
  assign(name: string): void;
}
