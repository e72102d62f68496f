/**
 * What a call that asks would do, for the permission prompt: the diff of an edit or write (computed
 * against the file on disk), the command of a Bash call, the URL of a fetch; the input otherwise.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PermissionRequest } from '../base/permission-types.js';
import { unifiedDiff } from './diff-lines.js';

export type Preview =
  | { kind: 'diff'; question: string; file: string; diff: string }
  | { kind: 'command'; question: string; command: string; description?: string }
  | { kind: 'url'; question: string; url: string; prompt?: string }
  | { kind: 'text'; question: string; text: string };

const MAX_FILE_BYTES = 2_000_000;

export function buildPreview(req: PermissionRequest, cwd: string): Preview {
  const input = (req.input && typeof req.input === 'object' ? req.input : {}) as Record<string, unknown>;
  const s = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : undefined);
  switch (req.toolName) {
    case 'Edit':
    case 'Write':
    case 'NotebookEdit':
      return fileChange(req.toolName, input, cwd) ?? text(req);
    case 'Bash':
      return {
        kind: 'command',
        question: 'Do you want to run this command?',
        command: s('command') ?? req.summary,
        ...(s('description') ? { description: s('description') } : {}),
      };
    case 'WebFetch':
      return { kind: 'url', question: 'Do you want to fetch this URL?', url: s('url') ?? req.summary, ...(s('prompt') ? { prompt: s('prompt') } : {}) };
    case 'ExitPlanMode':
      return { kind: 'text', question: 'Would you like to proceed?', text: req.preview ?? s('plan') ?? req.summary };
    default:
      return text(req);
  }
}

/** The input, once: the tool's own preview under its summary, else the input itself (the dialog's title names the tool). */
function text(req: PermissionRequest): Preview {
  const question = `Do you want to allow ${req.toolName}?`;
  if (req.preview) return { kind: 'text', question, text: `${req.summary}\n${req.preview}` };
  const hasInput = req.input !== null && typeof req.input === 'object' && Object.keys(req.input).length > 0;
  return { kind: 'text', question, text: hasInput ? (JSON.stringify(req.input, null, 2) ?? '').slice(0, 2000) : req.summary };
}

function fileChange(tool: string, input: Record<string, unknown>, cwd: string): Preview | undefined {
  const file = typeof input.file_path === 'string' ? input.file_path : typeof input.notebook_path === 'string' ? input.notebook_path : undefined;
  if (!file) return undefined;
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs);
  const shown = rel && !rel.startsWith('..') ? rel : abs;
  const current = readSmall(abs);
  let diff = '';
  if (tool === 'Write' && typeof input.content === 'string') diff = unifiedDiff(shown, current ?? '', input.content);
  else if (tool === 'Edit' && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    diff = editDiff(shown, current, input.old_string, input.new_string, input.replace_all === true);
  } else if (tool === 'NotebookEdit' && typeof input.new_source === 'string') diff = unifiedDiff(shown, '', input.new_source);
  const verb = tool === 'Write' ? (current === undefined ? 'create' : 'overwrite') : 'make this edit to';
  return { kind: 'diff', question: `Do you want to ${verb} ${path.basename(abs)}?`, file: shown, diff };
}

function editDiff(name: string, current: string | undefined, oldS: string, newS: string, all: boolean): string {
  if (current !== undefined && oldS && current.includes(oldS)) {
    const next = all ? current.split(oldS).join(newS) : current.replace(oldS, () => newS);
    return unifiedDiff(name, current, next);
  }
  return unifiedDiff(name, oldS, newS);
}

function readSmall(file: string): string | undefined {
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
