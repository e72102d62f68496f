/**
 * The call a rule's words describe, for `wicket rules explain 'Bash(npm test)'`: the tool and an
 * input that asks what the rule's specifier names (a command, a path, a domain), with whatever else
 * the tool's schema needs filled in plainly.
 */
import os from 'node:os';
import path from 'node:path';
import { parseRule } from '../../base/rule-parse.js';

export interface DescribedCall {
  name: string;
  input: Record<string, unknown>;
}

/** A path as rules write it (`./x`, `~/x`, `//abs`, `/x` from the project), made absolute. */
function pathOf(spec: string, cwd: string, home: string): string {
  if (spec.startsWith('~/')) return path.join(home, spec.slice(2));
  if (spec.startsWith('//')) return spec.slice(1);
  if (spec.startsWith('/')) return path.join(cwd, spec.slice(1));
  return path.resolve(cwd, spec);
}

/** `Tool(specifier)` as a call; an error message when the text is not a rule. */
export function callFromRule(text: string, cwd: string, home = os.homedir()): DescribedCall | { error: string } {
  const rule = parseRule(text, 'cli');
  if (rule.error) return { error: `${JSON.stringify(text)} is not a rule: ${rule.error}` };
  const spec = rule.specifier;
  const name = rule.toolName;
  if (spec === undefined) return { name, input: {} };
  switch (name) {
    case 'Bash':
      return { name, input: { command: spec.replace(/(:\*| \*)$/, '') } };
    case 'Read':
      return { name, input: { file_path: pathOf(spec, cwd, home) } };
    case 'Edit':
      return { name, input: { file_path: pathOf(spec, cwd, home), old_string: 'a', new_string: 'b' } };
    case 'Write':
      return { name, input: { file_path: pathOf(spec, cwd, home), content: '' } };
    case 'NotebookEdit':
      return { name, input: { notebook_path: pathOf(spec, cwd, home), new_source: '' } };
    case 'Glob':
      return { name, input: { pattern: spec } };
    case 'Grep':
      return { name, input: { pattern: spec } };
    case 'WebFetch': {
      const url = spec.startsWith('domain:') ? `https://${spec.slice('domain:'.length)}/` : spec;
      return { name, input: { url, prompt: 'summarize' } };
    }
    case 'WebSearch':
      return { name, input: { query: spec } };
    case 'Agent':
    case 'Task':
      return { name, input: { subagent_type: spec, description: 'check', prompt: 'check' } };
    case 'Skill':
      return { name, input: { skill: spec } };
    default:
      return { name, input: {} };
  }
}
