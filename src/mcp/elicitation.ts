/**
 * An MCP server asks the person for input during a call (`elicitation/create`), as Claude Code
 * handles it: Elicitation hooks (matcher: the server's name) run first and may answer (exit 2
 * declines); otherwise the person is asked (the app's dialog), and where nobody can answer (print
 * mode) the request is cancelled. ElicitationResult hooks then see the answer and may change it
 * (exit 2 declines) before it goes back. Notification hooks hear of the dialog
 * (`elicitation_dialog`, `elicitation_url_dialog`), of the answer (`elicitation_response`) and of a
 * server saying a URL step finished (`elicitation_complete`).
 */
import type { ElicitationAction, ElicitationHookInfo } from '../hooks/elicitation.js';
import type { Hooks } from '../hooks/types.js';
import { cleanContent, type ElicitContent } from './elicitation-form.js';

/** A server's request, as the hooks and the person see it: the server's name, message, mode, schema or URL. */
export type ElicitationRequest = ElicitationHookInfo;

export type ElicitAction = ElicitationAction;

export interface ElicitationAnswer {
  action: ElicitAction;
  /** accept in form mode: the fields' values. */
  content?: ElicitContent;
}

/** Asks the person; resolves with their answer (cancel when `signal` aborts). */
export type AskPerson = (req: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

/** What a connection calls: for each request, and for each `notifications/elicitation/complete`. */
export interface ElicitationHandler {
  elicit(req: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer>;
  complete(server: string, elicitationId: string): void;
  /** Resolves once the Notification hooks started so far have finished (before the session ends). */
  settled(): Promise<void>;
}

export interface ElicitationFlowOptions {
  /** The session's hooks (read at each request: settings may change them). */
  hooks: () => Hooks;
  /** Undefined where nobody can answer (print mode): the request is cancelled, unless a hook answers. */
  ask?: AskPerson;
  /** Told when a request was cancelled because nobody could answer. */
  note?: (text: string) => void;
  /** Told when a server says a URL step finished. */
  onComplete?: (server: string, elicitationId: string) => void;
}

export function elicitationFlow(o: ElicitationFlowOptions): ElicitationHandler {
  const running = new Set<Promise<unknown>>();
  const notify = (message: string, notificationType: string) => {
    const p = o
      .hooks()
      .notification?.({ message, notificationType }, new AbortController().signal)
      .catch(() => undefined);
    if (!p) return;
    running.add(p);
    void p.finally(() => running.delete(p));
  };
  return {
    async elicit(req, signal) {
      const byHook = await o
        .hooks()
        .elicitation?.(req, signal)
        .catch(() => undefined);
      if (byHook) return answer(byHook.action, byHook.content);
      let raw: ElicitationAnswer = { action: 'cancel' };
      if (o.ask && !signal.aborted) {
        const url = req.mode === 'url';
        notify(
          url ? `MCP server "${req.server}" asks you to open a URL` : `MCP server "${req.server}" requests your input`,
          url ? 'elicitation_url_dialog' : 'elicitation_dialog',
        );
        raw = await o.ask(req, signal).catch((): ElicitationAnswer => ({ action: 'cancel' }));
      } else if (!o.ask) {
        o.note?.(
          `MCP server "${req.server}" asked for input ("${oneLine(req.message)}"); nobody can answer in print mode, so the request was cancelled (an Elicitation hook can answer it)`,
        );
      }
      const info = {
        server: req.server,
        mode: req.mode,
        action: raw.action,
        ...(raw.content ? { content: raw.content } : {}),
        ...(req.elicitationId ? { elicitationId: req.elicitationId } : {}),
      };
      const changed = await o
        .hooks()
        .elicitationResult?.(info, signal)
        .catch(() => undefined);
      const final = changed ? answer(changed.action, changed.content ?? raw.content) : answer(raw.action, raw.content);
      notify(`Elicitation response for server "${req.server}": ${final.action}`, 'elicitation_response');
      return final;
    },
    complete(server, elicitationId) {
      notify(`MCP server "${server}" confirmed elicitation ${elicitationId} complete`, 'elicitation_complete');
      o.onComplete?.(server, elicitationId);
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}

/** Content goes back only with accept, and only what the protocol can carry. */
function answer(action: ElicitAction, content: unknown): ElicitationAnswer {
  const clean = action === 'accept' ? cleanContent(content) : undefined;
  return clean ? { action, content: clean } : { action };
}

function oneLine(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 100 ? `${one.slice(0, 99)}…` : one;
}

/**
 * The session's handler, for the MCP servers a sub-agent's definition starts for its own run (they
 * ask the same hooks and the same person). On globalThis: the app's bundle has its own copy of this module.
 */
const SESSION_HANDLER = Symbol.for('wicket.elicitation');
type Slot = { [SESSION_HANDLER]?: ElicitationHandler };

export function setSessionElicitation(handler: ElicitationHandler | undefined): void {
  (globalThis as Slot)[SESSION_HANDLER] = handler;
}

export function sessionElicitation(): ElicitationHandler | undefined {
  return (globalThis as Slot)[SESSION_HANDLER];
}
