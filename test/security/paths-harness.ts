/**
 * Calls through the real gates (tool-runner: find, parse, validate, hooks, permission, execute, map),
 * in bypassPermissions mode so the deny rules are the only guard, and the check every case ends
 * with: nothing the model would receive holds a denied file's content or name.
 */
import { executeCall, prepareCall, type RunnerEnv } from '../../src/core/tool-runner.js';
import type { CallOutcome } from '../../src/base/tool.js';
import { noHooks } from '../../src/hooks/types.js';
import { parseRule } from '../../src/base/rule-parse.js';
import type { PermissionRules } from '../../src/base/permission-types.js';
import { ReadState } from '../../src/base/read-state.js';
import type { Tool } from '../../src/base/tool.js';
import { CONTENT_LEAK, NAME_LEAK } from './paths-world.js';

export interface Gated {
  env: RunnerEnv;
  call(name: string, input: unknown): Promise<{ text: string; outcome: CallOutcome }>;
}

export function rulesFrom(deny: readonly string[], settingsFile: string): PermissionRules {
  return { allow: [], ask: [], deny: deny.map((r) => parseRule(r, 'projectSettings', settingsFile)) };
}

export function gated(o: { tools: Tool[]; project: string; home: string; rules: PermissionRules; cwd?: string }): Gated {
  const env: RunnerEnv = {
    tools: o.tools,
    state: { cwd: o.cwd ?? o.project, readState: new ReadState() },
    permission: { mode: 'bypassPermissions', rules: o.rules },
    hooks: noHooks,
    askUser: async () => ({ behavior: 'deny' }),
    base: { projectRoot: o.project, additionalDirs: [], homeDir: o.home, wicketHome: `${o.home}/.wicket`, sessionId: 'paths', env: {}, settings: {} },
    emit: () => {},
  };
  let n = 0;
  return {
    env,
    async call(name, input) {
      const p = prepareCall({ id: `toolu_paths_${++n}`, name, input }, env);
      const outcome = p.kind === 'done' ? p.outcome : await executeCall(p, env, new AbortController().signal);
      outcome.contextChange?.(env.state);
      const text = typeof outcome.result.content === 'string' ? outcome.result.content : JSON.stringify(outcome.result.content);
      return { text, outcome };
    },
  };
}

/** A leak report: the route, the leaked bytes with some context, or undefined when nothing leaked. */
export function leakIn(rawText: string, input: unknown): string | undefined {
  // What the model passed may come back quoted (a pattern, a path in an error): that is no leak.
  let text = rawText;
  for (const s of stringsIn(input).sort((a, b) => b.length - a.length)) if (s.length >= 3) text = text.split(s).join('<input>');
  const content = CONTENT_LEAK.exec(text);
  if (content) return around(text, content.index);
  const name = NAME_LEAK.exec(text);
  return name ? around(text, name.index) : undefined;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value, JSON.stringify(value).slice(1, -1)];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

function around(text: string, at: number): string {
  return JSON.stringify(text.slice(Math.max(0, at - 120), at + 80));
}

/** Throws with the route and the leaked bytes when `text` shows a denied file. */
export function assertNoLeak(route: string, input: unknown, text: string): void {
  const leak = leakIn(text, input);
  if (leak) throw new Error(`LEAK via ${route}\n  input: ${JSON.stringify(input)}\n  leaked: ${leak}`);
}
