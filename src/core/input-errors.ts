/** Turns a zod failure into one line per bad field, written for the model. */
import type { z } from 'zod';

export function formatInputIssues(error: z.ZodError, input: unknown): string[] {
  const lines: string[] = [];
  for (const issue of error.issues) {
    const where = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) lines.push(`unexpected field ${where ? `${where}.` : ''}${key}`);
      continue;
    }
    if (issue.code === 'invalid_type') {
      const value = valueAt(input, issue.path);
      if (value === undefined) {
        lines.push(`${where || 'input'} is required`);
        continue;
      }
      lines.push(`${where || 'input'}: expected ${issue.expected}, got ${typeName(value)}`);
      continue;
    }
    lines.push(`${where || 'input'}: ${issue.message}`);
  }
  return lines;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}
