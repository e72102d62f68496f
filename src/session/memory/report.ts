/**
 * The instruction files as a person reads about them (`wicket config`, /memory): each file given at
 * the start, in the model's order, with why it is there and its size in tokens (about four characters
 * a token); the rules that wait for a matching file; and the files left out, with why.
 */
import path from 'node:path';
import { MANAGED_SETTINGS_PATH } from './discover.js';
import type { InstructionFile, SkippedFile } from './types.js';

/** About four characters a token, as elsewhere where the API's count is not at hand. */
export function tokensOf(text: string): number {
  return Math.round(text.length / 4);
}

/** Why a file given at the start is there. */
export function whyLoaded(f: InstructionFile): string {
  if (f.parent) return `imported by ${f.parent}`;
  if (f.path === MANAGED_SETTINGS_PATH) return 'the managed settings\u2019 claudeMd';
  if (f.rule) return `${f.type === 'Managed' ? 'managed' : f.type === 'User' ? 'your' : 'project'} rule, always given`;
  if (f.agents) return 'AGENTS.md, read as project instructions';
  switch (f.type) {
    case 'Managed':
      return 'managed policy';
    case 'User':
      return 'your instructions for every project';
    case 'Local':
      return `your private instructions for ${path.dirname(f.path)}`;
    case 'AutoMem':
      return 'auto memory index (its first 200 lines)';
    default:
      return `project instructions of ${projectFolder(f.path)}`;
  }
}

function projectFolder(file: string): string {
  const dir = path.dirname(file);
  return path.basename(dir) === '.claude' ? path.dirname(dir) : dir;
}

export interface ReportInput {
  files: readonly InstructionFile[];
  waiting: readonly InstructionFile[];
  skipped: readonly SkippedFile[];
  memoryDir?: string;
}

/** The report's lines; files numbered from 1, as /memory opens them by number. */
export function instructionsReport(r: ReportInput): string[] {
  const total = r.files.reduce((n, f) => n + tokensOf(f.content), 0);
  const lines = [`Instruction files (given at the start, in this order; ~${total} tokens):`];
  if (!r.files.length) lines.push('  (none)');
  r.files.forEach((f, i) => lines.push(`  ${i + 1}. ${f.path} \u2014 ${whyLoaded(f)}, ~${tokensOf(f.content)} tokens`));
  if (r.waiting.length) {
    lines.push('Rules given once a matching file is read or edited:');
    for (const f of r.waiting) lines.push(`  ${f.path} \u2014 paths: ${(f.globs ?? []).join(', ')}, ~${tokensOf(f.content)} tokens`);
  }
  lines.push('CLAUDE.md files of subfolders are given when a file under them is first read or edited.');
  if (r.memoryDir) lines.push(`Auto memory: ${r.memoryDir}`);
  else lines.push('Auto memory: off');
  if (r.skipped.length) {
    lines.push('Not loaded:');
    for (const s of r.skipped) lines.push(`  ${s.path} \u2014 ${s.reason}${s.parent ? ` (named by ${s.parent})` : ''}`);
  }
  return lines;
}
