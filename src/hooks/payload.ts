/** Parts of an event's JSON that take more than a field: the Stop hook's running tasks, PermissionRequest's suggestions. */
import { parseRule } from '../base/rule-parse.js';
import { listBackgroundTasks, taskLabel } from '../tools/tasks/registry.js';

/** Rule strings as Claude Code's `permission_suggestions` entries. */
export function suggestionsPayload(suggestions: string[]): unknown[] {
  return suggestions.map((s) => {
    const rule = parseRule(s, 'session');
    const entry = rule.specifier === undefined ? { toolName: rule.toolName } : { toolName: rule.toolName, ruleContent: rule.specifier };
    return { type: 'addRules', rules: [entry], behavior: 'allow', destination: 'localSettings' };
  });
}

/** The Stop hook's `background_tasks`: what still runs in the background as the model stops (a hook may want it to wait). */
export function runningTasks(): Array<Record<string, unknown>> {
  return listBackgroundTasks()
    .filter((t) => t.status === 'running')
    .map((t) => ({
      task_id: t.id,
      task_type: t.kind === 'agent' ? 'local_agent' : 'local_bash',
      status: t.status,
      description: taskLabel(t),
      ...(t.kind === 'bash' ? { command: t.command } : { agent_type: t.agentType }),
      started_at: new Date(t.startedAt).toISOString(),
    }));
}
