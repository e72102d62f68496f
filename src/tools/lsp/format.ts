/**
 * The LSP tool's answer as the model reads it: one `path:line:col` line per place (paths relative to
 * the working folder), with what is there; places in files a Read deny rule hides are left out and
 * counted, never named, and a hover of a symbol declared in such a file is left out. While such a rule
 * holds, the literal values in hovers and diagnostics are left out too (lsp/redact.ts).
 */
import type { LspAnswer } from '../../base/lsp.js';
import { displayPath } from '../fs/permissions.js';
import { redactDiagnostic, redactHover } from '../../permissions/redact-literals.js';

export const MAX_LSP_LINES = 200;

export interface LspOutput {
  text: string;
  /** How many places the answer named (after those hidden were left out). */
  results: number;
  unavailable?: boolean;
}

export function formatAnswer(answer: LspAnswer, o: { cwd: string; hidden?: (absPath: string) => boolean }): LspOutput {
  if (answer.kind === 'unavailable') return { text: answer.reason, results: 0, unavailable: true };
  if (answer.kind === 'text') {
    // A hover of a symbol declared in a hidden file would show its declaration (a secret constant's value).
    const hiddenDecl = o.hidden && answer.definedIn !== undefined && (answer.definedIn === null || answer.definedIn.some((p) => o.hidden!(p)));
    if (hiddenDecl)
      return {
        text:
          answer.definedIn === null
            ? 'Hover left out: the server could not say where the symbol is declared, and a permission rule hides some files.'
            : 'Hover left out: the symbol is declared in a file a permission rule hides.',
        results: 0,
      };
    return { text: o.hidden && answer.definedIn !== undefined ? redactHover(answer.text) : answer.text, results: 0 };
  }
  const kept = o.hidden ? answer.items.filter((i) => !o.hidden!(i.path)) : answer.items;
  // A diagnostic may quote a value declared in a hidden file (a literal type).
  const shown = o.hidden && answer.diagnostics ? kept.map((i) => (i.label ? { ...i, label: redactDiagnostic(i.label) } : i)) : kept;
  const hiddenCount = answer.items.length - shown.length;
  const lines = shown.slice(0, MAX_LSP_LINES).map((i) => `${displayPath(i.path, o.cwd)}:${i.line}:${i.character}${i.label ? `  ${i.label}` : ''}`);
  if (shown.length > MAX_LSP_LINES) lines.push(`… ${shown.length - MAX_LSP_LINES} more not shown`);
  if (hiddenCount)
    lines.push(`(${hiddenCount} result${hiddenCount === 1 ? '' : 's'} in files a permission rule hides ${hiddenCount === 1 ? 'is' : 'are'} left out)`);
  if (!shown.length && !hiddenCount) lines.push('No results.');
  return { text: lines.join('\n'), results: shown.length };
}
