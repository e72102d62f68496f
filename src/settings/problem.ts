/**
 * A settings file that cannot be read as settings: not JSON(C), not an object, a guarding key of the
 * wrong type, a deny rule that is not a rule. Such a file may hold deny rules, hooks or other guards,
 * so wicket never goes on without it quietly: print mode stops (exit 2), the app asks first, and a
 * managed policy that cannot be read stops everything.
 */
import type { RuleSource } from '../base/rule-parse.js';

export interface SettingsProblem {
  /** The file's path, or "--settings" for JSON text given on the command line. */
  file: string;
  source: RuleSource;
  line: number;
  column: number;
  /** What is wrong, in words. */
  message: string;
  /** How to fix it, when there is one obvious way. */
  hint?: string;
}

/** Thrown by session set-up when a settings file cannot be read and nobody chose to go on without it. */
export class SettingsUnreadableError extends Error {
  constructor(
    readonly problems: SettingsProblem[],
    /** `--setting-sources` as given, for the advice. */
    readonly sources?: readonly string[],
  ) {
    super(problems.map(problemLine).join('\n'));
    this.name = 'SettingsUnreadableError';
  }
}

/** `<file>:<line>:<column>: <what is wrong>`, as compilers write it (editors jump to the place). */
export function problemLine(p: SettingsProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

const SCOPES: Partial<Record<RuleSource, string>> = { userSettings: 'user', projectSettings: 'project', localSettings: 'local' };

/** Only the user, project and local files may be left out, by the person's explicit choice; never the managed policy or the command line's. */
export function canGoOnWithout(p: SettingsProblem): boolean {
  return SCOPES[p.source] !== undefined;
}

/** The files of `problems`, each once, in order. */
export function problemFiles(problems: readonly SettingsProblem[]): string[] {
  return [...new Set(problems.map((p) => p.file))];
}

/**
 * What print mode (and every command that stops) writes to stderr. `flags`: the command takes
 * `--setting-sources` and `--settings` (a session does; `wicket mcp` and `wicket plugin` do not).
 */
export function stopMessage(problems: readonly SettingsProblem[], sources?: readonly string[], flags = true): string {
  const lines = problems.map((p) => `${problemLine(p)}${p.hint ? ` (${p.hint})` : ''}`);
  if (problems.some((p) => p.source === 'managed')) {
    lines.push(
      'wicket: stopped before anything ran: the managed settings policy cannot be read, and nothing runs without it. Whoever manages this machine must fix it.',
    );
    return `${lines.join('\n')}\n`;
  }
  const files = problemFiles(problems);
  const one = files.length === 1;
  lines.push(
    `wicket: stopped before anything ran: going on without ${one ? 'this settings file' : 'these settings files'} would drop ${one ? 'its' : 'their'} deny rules, hooks and other guards.`,
  );
  lines.push(`To go on: ${ways(problems, sources, flags).join('; or ')}.`);
  return `${lines.join('\n')}\n`;
}

function ways(problems: readonly SettingsProblem[], sources: readonly string[] | undefined, flags: boolean): string[] {
  const them = problemFiles(problems).length === 1 ? 'it' : 'them';
  const out = [`fix ${them}`];
  if (!problems.every(canGoOnWithout)) return out;
  out.push(`move ${them} aside`);
  if (flags) {
    const left = new Set(problems.map((p) => SCOPES[p.source]!));
    const keep = (sources ?? ['user', 'project', 'local']).filter((s) => !left.has(s));
    out.push(`leave ${them} out with --setting-sources ${JSON.stringify(keep.join(','))}`);
  }
  return out;
}

/** The sentence for a file the person chose to go on without (a warning, shown with the others). */
export function goingOnWithout(p: SettingsProblem): string {
  return `${problemLine(p)}; going on without this file, as chosen: its permission rules, hooks and settings do not apply`;
}
