/**
 * What a command reads on its standard input, as far as the command line shows it: nothing (the
 * shell's own stdin is /dev/null), known text (a literal here-doc, here-string or `echo … |`), a
 * file (`< file`), or something only known when it runs. A shell, `source /dev/stdin`, an
 * interpreter or `at` that reads its commands from stdin runs exactly this as code.
 */
import path from 'node:path';
import type { SimpleCommand } from './parse.js';
import type { Word } from './words.js';

export type Stdin = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'file'; word: Word } | { kind: 'unknown'; why: string };

export const NO_STDIN: Stdin = { kind: 'none' };

/**
 * The stdin of `cmd`: its own here-docs and here-strings (any descriptor: tree-sitter does not say
 * which one a here-string feeds, so all of them count), its `<` redirection, the command piped into
 * it, or what the code around it inherited.
 */
export function stdinOf(cmd: SimpleCommand, inherited: Stdin, piped: boolean): Stdin {
  const docs = cmd.redirects.filter((r) => r.kind === 'heredoc' || r.kind === 'herestring');
  if (docs.length) {
    if (docs.every((d) => d.bodyLiteral)) return { kind: 'text', text: docs.map((d) => d.body ?? '').join('\n') };
    return { kind: 'unknown', why: 'a here-doc or here-string whose text is only known when it runs' };
  }
  const read = cmd.redirects.find((r) => r.kind === 'read');
  if (read) return read.target?.literal ? { kind: 'file', word: read.target } : { kind: 'unknown', why: 'a file only known when it runs' };
  if (cmd.redirects.some((r) => r.kind === 'dup' && r.op.startsWith('<'))) return { kind: 'unknown', why: 'another file descriptor' };
  const from = cmd.pipedFrom;
  if (from === 'opaque') return { kind: 'unknown', why: 'a pipe whose content is only known when it runs' };
  if (from) {
    const text = literalOutput(from);
    return text === undefined ? { kind: 'unknown', why: 'a pipe whose content is only known when it runs' } : { kind: 'text', text };
  }
  if (piped) return { kind: 'unknown', why: 'a pipe whose content is only known when it runs' };
  return inherited;
}

/** Both inputs may be read, one after the other (`exec <<<a` then a here-doc later). */
export function mergeStdin(a: Stdin, b: Stdin): Stdin {
  if (a.kind === 'none') return b;
  if (b.kind === 'none') return a;
  if (a.kind === 'unknown') return a;
  if (b.kind === 'unknown') return b;
  if (a.kind === 'text' && b.kind === 'text') return { kind: 'text', text: `${a.text}\n${b.text}` };
  return { kind: 'unknown', why: 'input from more than one place' };
}

/** What `echo`/`printf`/`cat <<'EOF'` write, when it is fully known. */
export function literalOutput(cmd: SimpleCommand): string | undefined {
  const [name, ...args] = cmd.words;
  if (!name?.literal || args.some((w) => !w.literal)) return undefined;
  if (name.value === 'echo') {
    const flags = args.filter((w, i) => /^-[neE]+$/.test(w.value) && args.slice(0, i).every((x) => /^-[neE]+$/.test(x.value)));
    const text = args
      .slice(flags.length)
      .map((w) => w.value)
      .join(' ');
    return flags.some((f) => f.value.includes('e')) && text.includes('\\') ? undefined : text;
  }
  if (name.value === 'printf' && args.length === 1 && !/[%\\]/.test(args[0]!.value)) return args[0]!.value;
  if (name.value === 'cat' && args.length === 0) {
    const docs = cmd.redirects.filter((r) => r.kind === 'heredoc' || r.kind === 'herestring');
    return docs.length && docs.every((d) => d.bodyLiteral) ? docs.map((d) => d.body ?? '').join('\n') : undefined;
  }
  return undefined;
}

/** How a file name handed to a shell, `source` or an interpreter is read. */
export type CodeFile = { kind: 'stdin' } | { kind: 'descriptor' } | { kind: 'special' } | { kind: 'file' };

/**
 * `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0` (any spelling) are the command's stdin; other
 * descriptors are whatever the line opened on them; `/dev/tcp/…` and the rest of /dev and /proc are
 * never plain files.
 */
export function codeFileKind(name: string): CodeFile {
  const p = path.posix.normalize(name);
  if (/^\/dev\/stdin$|^\/dev\/fd\/0$|^\/proc\/[^/]+\/fd\/0$/.test(p)) return { kind: 'stdin' };
  if (/^\/dev\/fd\/\d+$|^\/proc\/[^/]+\/fd\/\d+$/.test(p)) return { kind: 'descriptor' };
  if (/^\/(dev|proc|sys)(\/|$)/.test(p)) return { kind: 'special' };
  return { kind: 'file' };
}

/** The text of every here-doc and here-string on the command, or undefined when one is not literal. */
export function heredocText(cmd: SimpleCommand): string | undefined {
  const docs = cmd.redirects.filter((r) => r.kind === 'heredoc' || r.kind === 'herestring');
  if (!docs.every((d) => d.bodyLiteral)) return undefined;
  return docs.map((d) => d.body ?? '').join('\n');
}
