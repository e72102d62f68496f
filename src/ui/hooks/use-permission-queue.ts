/**
 * askUser for the core, as a queue: each call that asks waits its turn, the app shows the first.
 * An answer that says "don't ask again" saves its rules (settings/persist.ts, or `persistRule`);
 * an abort answers no at once. A Notification hook hears that a prompt waits.
 */
import { useCallback, useState, type MutableRefObject } from 'react';
import { errorMessage } from '../../base/errors.js';
import type { AgentOptions } from '../../core/agent-options.js';
import type { AskUser, PermissionAnswer, PermissionRequest, RuleScope } from '../../base/permission-types.js';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../../settings/paths.js';
import { addLocalRule, addRuleToFile } from '../../settings/persist.js';
import type { AgentView } from '../agent-state.js';
import type { PendingAsk } from '../types.js';

/** What the queue reads of the agent's options (use-agent.ts's UseAgentOptions). */
interface QueueOptions {
  base: Pick<AgentOptions, 'projectRoot' | 'hooks'> & Partial<Pick<AgentOptions, 'homeDir' | 'env'>>;
  persistRule?: (rule: string) => Promise<void>;
}

export function usePermissionQueue(
  view: AgentView,
  opts: MutableRefObject<QueueOptions>,
  schedule: () => void,
  flushNow: () => void,
): { asks: PendingAsk[]; askUser: AskUser } {
  const [asks, setAsks] = useState<PendingAsk[]>([]);

  const saveRules = useCallback(
    (rules: string[], scope: RuleScope = 'localSettings') => {
      const o = opts.current;
      if (scope === 'session') {
        for (const rule of rules) view.add({ kind: 'info', tone: 'info', text: `Won't ask again for ${rule} in this session` });
        return schedule();
      }
      const file = scopeFile(scope, o.base);
      const local = scope === 'localSettings';
      const save =
        local && o.persistRule
          ? o.persistRule
          : (rule: string) => (local ? addLocalRule(o.base.projectRoot, 'allow', rule) : addRuleToFile(file, 'allow', rule));
      void (async () => {
        for (const rule of rules) {
          try {
            await save(rule);
            view.add({ kind: 'info', tone: 'info', text: `Won't ask again for ${rule} (saved to ${file})` });
          } catch (err) {
            view.add({ kind: 'info', tone: 'warning', text: `Allowed ${rule} for this session only: ${errorMessage(err)}` });
          }
        }
        schedule();
      })();
    },
    [view, opts, schedule],
  );

  const askUser = useCallback(
    (request: PermissionRequest, signal: AbortSignal) =>
      new Promise<PermissionAnswer>((resolve) => {
        const entry: PendingAsk = {
          request,
          resolve: (answer) => {
            signal.removeEventListener('abort', onAbort);
            setAsks((q) => q.filter((a) => a !== entry));
            view.setWaiting(request.toolUseId, false);
            if (answer.behavior === 'allow' && answer.remember?.length) saveRules(answer.remember, answer.rememberIn);
            schedule();
            resolve(answer);
          },
        };
        const onAbort = () => entry.resolve({ behavior: 'deny', message: 'the user interrupted the run before answering', answeredBy: 'interrupted' });
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        view.setWaiting(request.toolUseId, true);
        setAsks((q) => [...q, entry]);
        const notice = { message: `wicket needs your permission to use ${request.toolName}`, notificationType: 'permission_prompt' };
        opts.current.base.hooks.notification?.(notice, signal).catch(() => undefined);
        flushNow();
      }),
    [view, opts, schedule, flushNow, saveRules],
  );

  return { asks, askUser };
}

/** The settings file of a scope: the project's shared or local one, or the user's. */
function scopeFile(scope: Exclude<RuleScope, 'session'>, base: QueueOptions['base']): string {
  if (scope === 'projectSettings') return projectSettingsPath(base.projectRoot);
  if (scope === 'localSettings') return localSettingsPath(base.projectRoot);
  return userSettingsPath(base.homeDir ?? process.env.HOME ?? '', base.env?.CLAUDE_CONFIG_DIR || undefined);
}
