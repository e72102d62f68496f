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
  | {
      behavior: 'deny';
      by: string;
      reason: string;
      /** dontAsk mode denied a call that would have asked: `allowWith` when an allow rule could let it run (the suggested rules, maybe none). */
      unasked?: { allowWith?: string[] };
    }
  | {
      behavior: 'ask';
      by: string;
      reason: string;
      suggestions: string[];
      /** The ask rule that made the call ask, when one did. */
      askRule?: MatchedAskRule;
    };

/** An ask rule as a permission request names it (Claude Code's `matched_ask_rule`). */
export interface MatchedAskRule {
  /** Where the rule comes from (`projectSettings`, `session`, …). */
  source: string;
  toolName: string;
  ruleContent?: string;
}

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
  /**
   * Whether an allow rule could let the call run without asking (the tool's own default ask); false
   * for an ask rule, a protected path or a tool that always asks, which only a person can approve.
   */
  ruleCanAllow?: boolean;
  /** Diff, command or URL, for the prompt. */
  preview?: string;
  /** Who made the call ask, as the trace names it (`tool default`, `ask rule Bash(rm *) [projectSettings]`, `protected path`). */
  askedBy?: string;
  /** The file the call is held on, when it names one (its first path). */
  blockedPath?: string;
  /** The sub-agent making the call, when one is. */
  agentId?: string;
  /** The ask rule that made the call ask, when one did. */
  askRule?: MatchedAskRule;
  /** For an MCP tool: its server and where the server's definition came from (`sdk`, `user`, `project`, `plugin`, …). */
  mcpServer?: { name: string; source: string };
}

/** Where a "don't ask again" rule is kept: for this session only, or in a settings file (default: the local project one). */
export type RuleScope = 'session' | 'localSettings' | 'projectSettings' | 'userSettings';

/** The person's answer. */
export type PermissionAnswer =
  | {
      behavior: 'allow';
      /** rules to add for the rest of the session (and persist) */
      remember?: string[];
      /** Where `remember` is kept; absent: the project's local settings file. */
      rememberIn?: RuleScope;
      /** The call's input, changed by whoever answered (a permission prompt tool); checked again before it runs. */
      updatedInput?: unknown;
      /** Who answered when it was not a person (the Agent SDK host): the trace names it. */
      answeredBy?: string;
      /** The mode the session goes on in once the call ran (ExitPlanMode's approval: acceptEdits or default). */
      mode?: 'default' | 'acceptEdits';
    }
  | {
      behavior: 'deny';
      /** "tell wicket what to do instead"; when `answeredBy` is set, the whole reason given to the model. */
      message?: string;
      /**
       * Who answered when no person was asked (print mode, a permission prompt tool, a hook's own
       * check): the denial names it instead of saying that the user said no.
       */
      answeredBy?: string;
      /** Nobody could be asked at all (print mode, a hook's check): a rule or a person was missing. */
      nobodyAsked?: boolean;
      /**
       * The person said no and the turn ends here (the app's Esc or "No"): the front end stops the
       * run, and the model reads that it should wait for the person instead of trying another way.
       */
      interrupt?: boolean;
    };

export type AskUser = (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>;

/**
 * What a PermissionRequest hook's answer may change beyond its call, done by the face that can:
 * an allow's `updatedPermissions`, a deny's `interrupt`.
 */
export interface PermissionEffects {
  /** Applies permission updates (the Agent SDK's `updatedPermissions` form); resolves with what could not be applied, in words. */
  applyUpdates(updates: unknown[]): Promise<string[]>;
  /** Ends the current turn as an interrupt does. */
  interrupt(): void;
}
