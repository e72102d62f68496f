/**
 * LSP: asks the session's language servers about code (Claude Code's name and parameters): go to
 * definition or implementation, find references, hover, a file's symbols, the workspace's symbols,
 * the call hierarchy, and a file's diagnostics. Positions are 1-based, as Read shows lines; places
 * come back as `path:line:col` lines. Read-only and safe beside other calls; it passes the Read
 * rules for the file it names, and places in Read-denied files are left out of its answers.
 */
import { stat } from '../../base/fs/lazy-fs.js';
import { LSP_OPERATIONS } from '../../base/lsp.js';
import { resolveToolPath } from '../../base/paths.js';
import { defineTool, lazySchema } from '../../base/tool.js';
import { ToolError } from '../../base/errors.js';
import { readDeniedCheck } from '../../permissions/path-rules.js';
import { readVerdict } from '../fs/permissions.js';
import { formatAnswer, type LspOutput } from './format.js';

const inputSchema = lazySchema((z) =>
  z.strictObject({
    operation: z.enum(LSP_OPERATIONS).describe('The LSP operation to perform'),
    filePath: z.string().min(1).describe('The absolute or relative path to the file'),
    line: z.number().int().positive().optional().describe('The line number (1-based, as Read shows it); needed by the operations at a position'),
    character: z.number().int().positive().optional().describe('The character offset in the line (1-based); needed by the operations at a position'),
    query: z.string().optional().describe('workspaceSymbol: the symbol name to search for'),
  }),
);

type LspInput = { operation: (typeof LSP_OPERATIONS)[number]; filePath: string; line?: number; character?: number; query?: string };

const AT_POSITION = new Set(['goToDefinition', 'goToImplementation', 'findReferences', 'hover', 'prepareCallHierarchy', 'incomingCalls', 'outgoingCalls']);

const DESCRIPTION = `Asks a language server (the compiler's view of the code) instead of searching text.
Operations:
- goToDefinition / goToImplementation: where the symbol at filePath:line:character is defined / implemented
- findReferences: every use of the symbol at the position, across files
- hover: the type and documentation of the symbol at the position
- documentSymbol: the symbols (functions, classes, variables) of filePath
- workspaceSymbol: symbols named like \`query\` across the project (filePath picks the language server)
- prepareCallHierarchy / incomingCalls / outgoingCalls: the function at the position, who calls it, what it calls
- diagnostics: the errors and warnings the language server reports for filePath
line and character are 1-based, as Read shows lines. Results are \`path:line:col\` lines.
Servers: typescript-language-server, pyright-langserver, gopls, rust-analyzer and clangd when installed, and those of .lsp.json and plugins.`;

export const lspTool = defineTool<LspInput, LspOutput>({
  name: 'LSP',
  description: () => DESCRIPTION,
  inputSchema,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,

  async validateInput(input, ctx) {
    const abs = resolveToolPath(input.filePath, ctx.cwd, ctx.homeDir);
    const s = await stat(abs).catch(() => undefined);
    if (!s) return { ok: false, message: `File does not exist: ${abs}.` };
    if (!s.isFile()) return { ok: false, message: `Not a file: ${abs}. Pass a source file.` };
    if (AT_POSITION.has(input.operation) && (input.line === undefined || input.character === undefined)) {
      return { ok: false, message: `${input.operation} needs line and character (1-based, as Read shows lines).` };
    }
    if (!ctx.lsp) return { ok: false, message: 'Language servers are off in this session (WICKET_LSP=0 or --bare).' };
    return { ok: true };
  },

  permissionPaths: (input, ctx) => ({ access: 'read', paths: [resolveToolPath(input.filePath, ctx.cwd, ctx.homeDir)] }),
  async checkPermissions(input, ctx) {
    return readVerdict(resolveToolPath(input.filePath, ctx.cwd, ctx.homeDir), ctx);
  },

  async *call(input, ctx) {
    if (!ctx.lsp) throw new ToolError('execution_failed', 'Language servers are off in this session.');
    const file = resolveToolPath(input.filePath, ctx.cwd, ctx.homeDir);
    const answer = await ctx.lsp.query(
      {
        operation: input.operation,
        file,
        line: input.line ?? 1,
        character: input.character ?? 1,
        ...(input.query !== undefined ? { query: input.query } : {}),
      },
      ctx.signal,
    );
    if (ctx.signal.aborted) throw new ToolError('execution_failed', 'Interrupted by the user.');
    return formatAnswer(answer, { cwd: ctx.cwd, hidden: readDeniedCheck(ctx) });
  },

  toModelResult: (output) => ({ content: output.text, ...(output.unavailable ? { isError: true } : {}) }),
  summary: (input) =>
    `LSP ${input.operation} ${input.filePath}${input.line !== undefined ? `:${input.line}:${input.character ?? 1}` : ''}${input.query ? ` "${input.query}"` : ''}`,
  display: (output, input) => ({
    summary: output.unavailable
      ? 'no language server'
      : output.results
        ? `${output.results} result${output.results === 1 ? '' : 's'}`
        : `${input.operation} done`,
    preview: output.text.split('\n').slice(0, 5).join('\n'),
  }),
});
