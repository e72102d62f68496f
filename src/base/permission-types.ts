/** Permission data shared by the engine, the runner and the front ends. */
import type { ParsedRule } from './rule-parse.js';

export interface PermissionRules {
  allow: ParsedRule[];
  ask: ParsedRule[];
  deny: ParsedRule[];
}

export function emptyRules(): PermissionRules {
  return { allow: [], ask: [], deny: [] };
}

/** The engine's verdict. `by` names who decided, for the gate trace ("deny rule Bash(rm *) [projectSettings]"). */
export type PermissionDecision =
  | { behavior: 'allow'; by: string }
  | { behavior: 'deny'; by: string; reason: string }
  | { behavior: 'ask'; by: string; reason: string; suggestions: string[] };

/** What the front end is asked when a call needs a person. */
export interface PermissionRequest {
  toolUseId: string;
  toolName: string;
  input: unknown;
  /** One line: what the call would do. */
  summary: string;
  /** Why it asks (which rule, mode or default). */
  reason: string;
  /** Rules a "yes, don't ask again" answer would add. */
  suggestions: string[];
  /** Diff, command or URL, for the prompt. */
  preview?: string;
}

/** The person's answer. */
export type PermissionAnswer =
  | {
      behavior: 'allow';
      /** rules to add for the rest of the session (and persist) */
      remember?: string[];
      /** The call's input, changed by whoever answered (a permission prompt tool); checked again before it runs. */
      updatedInput?: unknown;
    }
  | { behavior: 'deny'; /** "tell wicket what to do instead" */ message?: string };

export type AskUser = (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>;
