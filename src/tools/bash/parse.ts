/**
 * A real bash parser (tree-sitter-bash through web-tree-sitter) that turns a command line into the
 * simple commands it runs: through `&&`, `||`, `;`, `|`, `&`, newlines, subshells, groups, control
 * flow, function bodies, `$(…)`, backticks, process substitution and here-doc bodies.
 *
 * Parsing needs the wasm runtime, which loads asynchronously: `initBashParser()` is awaited once at
 * start-up (and lazily by Bash's validateInput); after that `parseScript` is synchronous.
 * Anything the walker cannot read with confidence is reported in `problems` ("too tangled to read").
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Language, Node, Parser as TsParser } from 'web-tree-sitter';
import { literalWord, resolveWord, type Word } from './words.js';
import { treeSitterLib } from './tree-sitter-lib.js';

export interface Redirect {
  /** write: `>` `>>` `&>` `>|` `<>`; read: `<`; dup: `2>&1`; heredoc/herestring feed stdin. */
  kind: 'write' | 'read' | 'dup' | 'heredoc' | 'herestring';
  op: string;
  target?: Word;
  /** Here-doc or here-string text, and whether bash passes it on unexpanded. */
  body?: string;
  bodyLiteral?: boolean;
}

export interface SimpleCommand {
  /** Leading `VAR=value` words. */
  assignments: Word[];
  /** Command name first, then the arguments. Empty for a redirection-only statement. */
  words: Word[];
  redirects: Redirect[];
  /** Source text of the command. */
  text: string;
  /** The command before this one in a pipeline (its stdout is our stdin), or 'opaque' for a compound. */
  pipedFrom?: SimpleCommand | 'opaque';
  /** Inside `$(…)`, backticks or `<(…)`. */
  inSubstitution: boolean;
  /** Runs in the shell itself (not in a subshell, substitution or pipeline): a `cd` here persists. */
  topLevel: boolean;
  /** Inside `( … )` or `{ …; }`, or sent to the background with `&`. */
  grouped?: Grouping;
}

export interface ParsedScript {
  commands: SimpleCommand[];
  /** Names assigned by bare `VAR=value` statements. */
  assigned: string[];
  /** Those statements as words (`VAR=value`, quotes resolved), declarations' included. */
  assignments: Word[];
  /** Why the command cannot be read statically; empty when it can. */
  problems: string[];
}

const MAX_DEPTH = 200;

/** The part of the WebAssembly API used here (the Node typings do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
let parser: TsParser | undefined;
let initPromise: Promise<void> | undefined;

/**
 * Load the wasm parser once. Safe to call many times.
 *
 * Both wasm modules are compiled synchronously: after an asynchronous compile, V8 keeps finishing
 * code in the background, and the first child process started after the first parse then waited
 * ~1.5 s for its exit to be noticed (the main thread blocks on the compiler until it is done).
 */
export function initBashParser(): Promise<void> {
  initPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Parser, Language: Lang } = treeSitterLib();
    const runtime = readFileSync(packageFile(require, 'web-tree-sitter', 'web-tree-sitter.wasm'));
    const options = {
      locateFile: (f: string) => packageFile(require, 'web-tree-sitter', f),
      instantiateWasm(imports: object, done: (instance: object, module: object) => void) {
        const module = new wasm.Module(runtime);
        const instance = new wasm.Instance(module, imports);
        done(instance, module);
        return instance.exports;
      },
    };
    await Parser.init(options as Parameters<typeof Parser.init>[0]);
    // Between the long steps, events waiting (a reply streaming in) are let through: this may be
    // a warm-up while the model thinks (warm-up.ts).
    await breathe();
    const grammar = readFileSync(packageFile(require, 'tree-sitter-bash', 'tree-sitter-bash.wasm'));
    const grammarModule = new wasm.Module(grammar);
    await breathe();
    const language: Language = Lang.loadSync(grammarModule as Parameters<typeof Lang.loadSync>[0]);
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })();
  return initPromise;
}

/**
 * A file a package ships, in the folder where Node finds the package. `require.resolve` goes through
 * the package's exports map, whose code costs about 5 ms to start; it is asked only when the file is
 * not there.
 */
export function packageFile(require: NodeJS.Require, pkg: string, file: string): string {
  for (const dir of require.resolve.paths(pkg) ?? []) {
    if (!existsSync(path.join(dir, pkg, 'package.json'))) continue;
    const found = path.join(dir, pkg, file);
    return existsSync(found) ? found : require.resolve(`${pkg}/${file}`);
  }
  return require.resolve(`${pkg}/${file}`);
}

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export function isBashParserReady(): boolean {
  return parser !== undefined;
}

/** Parse a command line. Requires `initBashParser()` to have finished. */
export function parseScript(source: string): ParsedScript {
  if (!parser) throw new Error('bash parser not initialised: await initBashParser() first');
  let tree = parser.parse(source);
  if (!tree) return { commands: [], assigned: [], assignments: [], problems: ['the parser gave up'] };
  const joined = joinLineContinuations(source, tree.rootNode);
  if (joined !== source) {
    tree.delete();
    tree = parser.parse(joined);
    if (!tree) return { commands: [], assigned: [], assignments: [], problems: ['the parser gave up'] };
  }
  try {
    const walker = new Walker(joined);
    walker.visit(tree.rootNode, { depth: 0, inSubstitution: false, topLevel: true });
    if (tree.rootNode.hasError) walker.problems.unshift('the command has a syntax error or a construct the parser cannot read');
    return { commands: walker.commands, assigned: walker.assigned, assignments: walker.assignments, problems: walker.problems };
  } finally {
    tree.delete();
  }
}

/**
 * bash removes backslash-newline before splitting words (`r\⏎m` runs `rm`); tree-sitter does not.
 * Remove them wherever bash would (not inside single quotes, quoted here-docs or comments) and reparse.
 */
function joinLineContinuations(source: string, root: Node): string {
  if (!source.includes('\\\n')) return source;
  let out = '';
  let last = 0;
  for (let i = source.indexOf('\\\n'); i !== -1; i = source.indexOf('\\\n', i + 2)) {
    if (isEscapedBackslash(source, i)) continue;
    const at = root.descendantForIndex(i, i + 1);
    const type = at?.type ?? '';
    if (type === 'raw_string' || type === 'comment' || type === 'heredoc_body' || type === 'heredoc_content') continue;
    out += source.slice(last, i);
    last = i + 2;
  }
  return out + source.slice(last);
}

function isEscapedBackslash(s: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

export type Grouping = 'subshell' | 'group' | 'background';

interface Scope {
  depth: number;
  inSubstitution: boolean;
  topLevel: boolean;
  grouped?: Grouping;
}

const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);
const HEREDOC_PARTS = new Set(['heredoc_start', 'heredoc_body', 'heredoc_end']);
/** What can follow a here-doc's delimiter on its line as an argument of the command. */
const HEREDOC_ARGUMENTS = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'number',
  'arithmetic_expansion',
  'brace_expression',
  'command_substitution',
  'process_substitution',
]);
const NESTED_SCOPE = new Set(['subshell', 'pipeline']);

class Walker {
  constructor(private readonly source: string) {}

  commands: SimpleCommand[] = [];
  assigned: string[] = [];
  assignments: Word[] = [];
  problems: string[] = [];

  visit(node: Node, scope: Scope): SimpleCommand | undefined {
    if (scope.depth > MAX_DEPTH) {
      if (!this.problems.includes('nested too deeply')) this.problems.push('nested too deeply');
      return undefined;
    }
    const inner: Scope = { ...scope, depth: scope.depth + 1 };
    switch (node.type) {
      case 'command':
        return this.command(node, inner);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, inner);
      case 'redirected_statement':
        return this.redirected(node, inner);
      case 'pipeline':
        return this.pipeline(node, { ...inner, topLevel: false });
      case 'variable_assignment':
        this.assigned.push(node.childForFieldName('name')?.text ?? node.text);
        this.assignments.push(resolveAssignment(node));
        this.visitChildren(node, inner);
        return undefined;
      case 'ERROR':
        this.problems.push(`unreadable text: ${node.text.slice(0, 60)}`);
        this.visitChildren(node, inner);
        return undefined;
      case 'comment':
        return undefined;
      case 'file_redirect': {
        // `$(< file)` is bash's `$(cat file)`.
        const cmd = this.newCommand(node, inner);
        cmd.words.push(literalWord('cat'));
        cmd.redirects.push(this.redirect(node));
        this.visitNested(node, inner);
        return cmd;
      }
      default:
        if (SUBSTITUTIONS.has(node.type)) this.visitChildren(node, { ...inner, inSubstitution: true, topLevel: false });
        else if (node.type === 'subshell') this.visitChildren(node, { ...inner, topLevel: false, grouped: 'subshell' });
        else if (node.type === 'compound_statement') this.visitChildren(node, { ...inner, grouped: 'group' });
        else this.visitChildren(node, NESTED_SCOPE.has(node.type) ? { ...inner, topLevel: false } : inner);
        return undefined;
    }
  }

  /** A child followed by `&` runs in the background. */
  private visitChildren(node: Node, scope: Scope): void {
    node.children.forEach((child, i) => {
      const next = node.children[i + 1];
      this.visit(child, next && !next.isNamed && next.type === '&' ? { ...scope, grouped: 'background' } : scope);
    });
  }

  private command(node: Node, scope: Scope): SimpleCommand {
    this.checkGaps(node);
    const cmd = this.newCommand(node, scope);
    for (const child of node.children) {
      if (child.type === 'variable_assignment') cmd.assignments.push(resolveAssignment(child));
      else if (child.type === 'command_name') cmd.words.unshift(resolveWord(child.firstChild ?? child));
      else if (child.isNamed && child.type !== 'comment' && !isRedirect(child)) cmd.words.push(resolveWord(child));
      if (!isRedirect(child)) this.visitNested(child, scope);
    }
    this.attachRedirects(node, cmd, scope);
    return cmd;
  }

  /**
   * The redirections among `node`'s children, given to `owner`. tree-sitter puts whatever follows a
   * here-doc operator on its line (`cat <<EOF | sh`, `<<EOF > out && next`) inside the here-doc node.
   */
  private attachRedirects(node: Node, owner: SimpleCommand, scope: Scope): void {
    for (const r of node.children.filter(isRedirect)) {
      const parts = r.type === 'heredoc_redirect' ? r.children.filter((c) => c.type === 'heredoc_body') : [r];
      for (const part of parts) this.visitNested(part, scope);
      owner.redirects.push(this.redirect(r));
      if (r.type !== 'heredoc_redirect') continue;
      for (const rest of r.namedChildren) {
        if (HEREDOC_PARTS.has(rest.type)) continue;
        if (isRedirect(rest)) {
          this.visitNested(rest, scope);
          owner.redirects.push(this.redirect(rest));
        } else if (rest.type === 'pipeline') this.pipeline(rest, { ...scope, topLevel: false }, owner);
        else if (HEREDOC_ARGUMENTS.has(rest.type)) {
          // `cat <<'EOF' ~/.netrc`: a word after the delimiter is the command's own argument.
          owner.words.push(resolveWord(rest));
          this.visitNested(rest, scope);
        } else this.visit(rest, scope);
      }
    }
  }

  /** `export A=1`, `local x`, `unset y`: a command named by its keyword. */
  private declaration(node: Node, scope: Scope): SimpleCommand {
    const cmd = this.newCommand(node, scope);
    for (const child of node.children) {
      if (!child.isNamed) cmd.words.push(literalWord(child.text));
      else if (child.type === 'variable_assignment') {
        this.assigned.push(child.childForFieldName('name')?.text ?? child.text);
        const word = resolveAssignment(child);
        this.assignments.push(word);
        cmd.words.push(word);
      } else if (!isRedirect(child)) cmd.words.push(resolveWord(child));
      if (!isRedirect(child)) this.visitNested(child, scope);
    }
    this.attachRedirects(node, cmd, scope);
    return cmd;
  }

  private newCommand(node: Node, scope: Scope): SimpleCommand {
    const cmd: SimpleCommand = {
      assignments: [],
      words: [],
      redirects: [],
      text: node.text,
      inSubstitution: scope.inSubstitution,
      topLevel: scope.topLevel,
      ...(scope.grouped ? { grouped: scope.grouped } : {}),
    };
    this.commands.push(cmd);
    return cmd;
  }

  /** Substitutions inside words are commands of their own. */
  private visitNested(node: Node, scope: Scope): void {
    if (SUBSTITUTIONS.has(node.type)) {
      this.visitChildren(node, { ...scope, depth: scope.depth + 1, inSubstitution: true, topLevel: false });
      return;
    }
    if (scope.depth > MAX_DEPTH) return;
    for (const child of node.children) this.visitNested(child, { ...scope, depth: scope.depth + 1 });
  }

  /**
   * tree-sitter can leave a word out of the tree (a lone `-` before a here-doc: `cat - <<EOF`):
   * text between a statement's parts that no node covers is unreadable.
   */
  private checkGaps(node: Node): void {
    let end = node.startIndex;
    for (const child of node.children) {
      const gap = this.source.slice(end, child.startIndex);
      if (gap.trim() !== '' && !this.problems.some((p) => p.startsWith('text the parser skipped')))
        this.problems.push(`text the parser skipped: ${gap.trim().slice(0, 40)}`);
      end = Math.max(end, child.endIndex);
    }
  }

  private redirected(node: Node, scope: Scope): SimpleCommand | undefined {
    this.checkGaps(node);
    const body = node.childForFieldName('body');
    const before = this.commands.length;
    const target = body ? this.visit(body, scope) : undefined;
    // tree-sitter hangs a here-doc on the whole list (`a && b <<EOF`); bash gives it to the last command.
    const owner =
      target ??
      this.commands
        .slice(before)
        .reverse()
        .find((c) => c.inSubstitution === scope.inSubstitution);
    const holder = owner ?? this.newCommand(node, scope);
    this.attachRedirects(node, holder, scope);
    return target;
  }

  private pipeline(node: Node, scope: Scope, feeder?: SimpleCommand): undefined {
    let previous: SimpleCommand | 'opaque' | undefined = feeder;
    for (const child of node.children) {
      if (!child.isNamed) continue;
      const before = this.commands.length;
      const cmd = this.visit(child, scope);
      const first = cmd ?? this.commands[before];
      if (first && previous) first.pipedFrom = previous;
      previous = cmd ?? 'opaque';
    }
    return undefined;
  }

  private redirect(node: Node): Redirect {
    if (node.type === 'heredoc_redirect') return heredoc(node);
    if (node.type === 'herestring_redirect') {
      const arg = node.namedChildren[node.namedChildren.length - 1];
      const word = arg ? resolveWord(arg) : literalWord('');
      return { kind: 'herestring', op: '<<<', body: word.value, bodyLiteral: word.literal };
    }
    // tree-sitter-bash reads `3<>f` as `<` and an error: the file is opened for writing too.
    const readWrite = node.children.some((c) => c.type === 'ERROR') && /^\d*<>/.test(node.text);
    const op = readWrite ? '<>' : (node.children.find((c) => !c.isNamed)?.text ?? '>');
    const dest = node.childForFieldName('destination');
    const target = dest ? resolveWord(dest) : undefined;
    return { kind: redirectKind(op, target), op, ...(target ? { target } : {}) };
  }
}

function isRedirect(node: Node): boolean {
  return node.type === 'file_redirect' || node.type === 'heredoc_redirect' || node.type === 'herestring_redirect';
}

function redirectKind(op: string, target: Word | undefined): Redirect['kind'] {
  if (op === '<') return 'read';
  if ((op === '>&' || op === '<&') && target && /^(\d+|-)$/.test(target.value)) return 'dup';
  if (op === '<&') return 'dup';
  return 'write';
}

function heredoc(node: Node): Redirect {
  const start = node.children.find((c) => c.type === 'heredoc_start')?.text ?? '';
  const bodyNode = node.children.find((c) => c.type === 'heredoc_body');
  const quoted = /['"\\]/.test(start);
  const body = bodyNode?.text ?? '';
  const hasExpansion = bodyNode ? bodyNode.namedChildren.some((c) => c.type !== 'heredoc_content') : false;
  const literal = quoted || (!hasExpansion && !/[$`\\]/.test(body));
  return { kind: 'heredoc', op: node.children[0]?.text ?? '<<', body, bodyLiteral: literal };
}

function resolveAssignment(node: Node): Word {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const value = valueNode ? resolveWord(valueNode) : literalWord('');
  const op = node.text.slice(name.length).startsWith('+=') ? '+=' : '=';
  return {
    raw: node.text,
    value: `${name}${op}${value.value}`,
    pattern: `${name}${op}${value.pattern}`,
    literal: value.literal,
  };
}
