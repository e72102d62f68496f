/**
 * The LSP tool's operations as requests to a server, and the server's answers as places (`path`,
 * 1-based line and column, what is there) or text. Positions come 1-based, as Read shows lines.
 */
import { fileURLToPath } from 'node:url';
import type { LspAnswer, LspLocation, LspQuery } from '../base/lsp.js';
import type { LspServer } from './server.js';
import type { Diagnostic } from './diagnostics-store.js';

type Position = { line: number; character: number };
type Range = { start: Position; end: Position };
type Location = { uri: string; range: Range };
type LocationLink = { targetUri: string; targetSelectionRange?: Range; targetRange: Range };
type DocumentSymbol = { name: string; kind: number; detail?: string; range: Range; selectionRange?: Range; children?: DocumentSymbol[] };
type SymbolInformation = { name: string; kind: number; containerName?: string; location: { uri: string; range?: Range } };
type CallItem = { name: string; kind: number; uri: string; range: Range; selectionRange: Range; detail?: string };

const KINDS = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
];
const kindName = (k: number) => KINDS[k] ?? 'symbol';
const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

function pathOf(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function at(uri: string, range: Range | undefined, label?: string): LspLocation {
  const start = range?.start ?? { line: 0, character: 0 };
  return { path: pathOf(uri), line: start.line + 1, character: start.character + 1, ...(label ? { label } : {}) };
}

function locations(result: unknown): LspLocation[] {
  const list = Array.isArray(result) ? result : result ? [result] : [];
  return list.map((l: Location | LocationLink) => ('targetUri' in l ? at(l.targetUri, l.targetSelectionRange ?? l.targetRange) : at(l.uri, l.range)));
}

function hoverText(result: unknown): string {
  const contents = (result as { contents?: unknown } | null)?.contents;
  const one = (c: unknown): string => (typeof c === 'string' ? c : c && typeof c === 'object' && 'value' in c ? String((c as { value: unknown }).value) : '');
  const text = (Array.isArray(contents) ? contents.map(one) : [one(contents)]).filter(Boolean).join('\n\n').trim();
  return text || 'No hover information at this position.';
}

function documentSymbols(result: unknown, file: string): LspLocation[] {
  const out: LspLocation[] = [];
  const walk = (list: DocumentSymbol[], depth: number) => {
    for (const s of list) {
      out.push({ ...at(file, s.selectionRange ?? s.range), path: file, label: `${'  '.repeat(depth)}${kindName(s.kind)} ${s.name}` });
      if (s.children?.length) walk(s.children, depth + 1);
    }
  };
  const list = Array.isArray(result) ? result : [];
  if (list.length && 'location' in list[0]) {
    for (const s of list as SymbolInformation[]) out.push(at(s.location.uri, s.location.range, `${kindName(s.kind)} ${s.name}`));
  } else walk(list as DocumentSymbol[], 0);
  return out;
}

function workspaceSymbols(result: unknown): LspLocation[] {
  const list = (Array.isArray(result) ? result : []) as SymbolInformation[];
  return list.map((s) => at(s.location.uri, s.location.range, `${kindName(s.kind)} ${s.containerName ? `${s.containerName}.` : ''}${s.name}`));
}

function diagnosticsText(items: readonly Diagnostic[] | undefined, file: string): LspAnswer {
  if (!items) return { kind: 'text', text: 'The language server has not reported diagnostics for this file yet; try again in a moment.' };
  if (!items.length) return { kind: 'text', text: 'No diagnostics: the language server reports no errors or warnings in this file.' };
  return {
    kind: 'locations',
    diagnostics: true,
    items: items.map((d) => ({
      path: file,
      line: d.range.start.line + 1,
      character: d.range.start.character + 1,
      label: `${SEVERITY[d.severity ?? 1] ?? 'error'}: ${d.message.split('\n')[0]}${d.code !== undefined ? ` [${d.code}]` : ''}`,
    })),
  };
}

export async function answerQuery(
  server: LspServer,
  q: LspQuery,
  doc: { uri: string; version: number },
  signal: AbortSignal,
  diagnosticsOf: (doc: { uri: string; version: number }, uri: string) => Promise<Diagnostic[] | undefined>,
): Promise<LspAnswer> {
  const textDocument = { uri: doc.uri };
  const position = { line: Math.max(0, q.line - 1), character: Math.max(0, q.character - 1) };
  const ask = <T>(method: string, params: unknown) => server.request<T>(method, params, signal);
  const none = (what: string): LspAnswer => ({ kind: 'text', text: `No ${what} found at ${q.line}:${q.character}.` });
  switch (q.operation) {
    case 'goToDefinition':
    case 'goToImplementation': {
      const r = locations(await ask(q.operation === 'goToDefinition' ? 'textDocument/definition' : 'textDocument/implementation', { textDocument, position }));
      return r.length ? { kind: 'locations', items: r } : none(q.operation === 'goToDefinition' ? 'definition' : 'implementation');
    }
    case 'findReferences': {
      const r = locations(await ask('textDocument/references', { textDocument, position, context: { includeDeclaration: true } }));
      return r.length ? { kind: 'locations', items: r } : none('references');
    }
    case 'hover': {
      const text = hoverText(await ask('textDocument/hover', { textDocument, position }));
      // A hover shows the symbol's declaration (a constant's value too): where it is declared decides who may see it.
      const definedIn = await ask('textDocument/definition', { textDocument, position }).then(
        (r) => locations(r).map((l) => l.path),
        () => null,
      );
      return { kind: 'text', text, definedIn };
    }
    case 'documentSymbol': {
      const r = documentSymbols(await ask('textDocument/documentSymbol', { textDocument }), q.file);
      return r.length ? { kind: 'locations', items: r } : { kind: 'text', text: 'No symbols in this file.' };
    }
    case 'workspaceSymbol': {
      const r = workspaceSymbols(await ask('workspace/symbol', { query: q.query ?? '' }));
      return r.length ? { kind: 'locations', items: r } : { kind: 'text', text: `No symbols match "${q.query ?? ''}".` };
    }
    case 'diagnostics':
      return diagnosticsText(await diagnosticsOf(doc, doc.uri), q.file);
    default:
      return callHierarchy(q, ask, { textDocument, position }, none);
  }
}

async function callHierarchy(
  q: LspQuery,
  ask: <T>(method: string, params: unknown) => Promise<T | undefined>,
  params: unknown,
  none: (what: string) => LspAnswer,
): Promise<LspAnswer> {
  const items = (await ask<CallItem[] | null>('textDocument/prepareCallHierarchy', params)) ?? [];
  if (!items.length) return none('callable symbol');
  if (q.operation === 'prepareCallHierarchy')
    return { kind: 'locations', items: items.map((i) => at(i.uri, i.selectionRange, `${kindName(i.kind)} ${i.name}`)) };
  const out: LspLocation[] = [];
  for (const item of items) {
    if (q.operation === 'incomingCalls') {
      const calls = (await ask<Array<{ from: CallItem; fromRanges: Range[] }> | null>('callHierarchy/incomingCalls', { item })) ?? [];
      for (const c of calls) out.push(at(c.from.uri, c.fromRanges[0] ?? c.from.selectionRange, `${kindName(c.from.kind)} ${c.from.name} calls ${item.name}`));
    } else {
      const calls = (await ask<Array<{ to: CallItem; fromRanges: Range[] }> | null>('callHierarchy/outgoingCalls', { item })) ?? [];
      for (const c of calls) out.push(at(c.to.uri, c.to.selectionRange, `${kindName(c.to.kind)} ${c.to.name}, called by ${item.name}`));
    }
  }
  return out.length ? { kind: 'locations', items: out } : none(q.operation === 'incomingCalls' ? 'incoming calls' : 'outgoing calls');
}
