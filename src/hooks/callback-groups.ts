/**
 * The hooks an Agent SDK host registers in its `initialize` request,
 * `{Event: [{matcher?, hookCallbackIds: ["hook_0"], timeout?, onFailure?}]}`, as matcher groups of
 * `type: "callback"` handlers: they run beside the settings' hooks, matched and merged the same way.
 * What cannot be read is left out with a warning; an event wicket does not fire is named.
 */
import { ALL_CLAUDE_HOOK_EVENTS, SUPPORTED_HOOK_EVENTS, type CallbackHook, type HookEvent, type HookGroup } from '../base/hook-config.js';

export function callbackGroups(value: unknown): { groups: HookGroup[]; warnings: string[] } {
  const groups: HookGroup[] = [];
  const warnings: string[] = [];
  if (value === undefined || value === null) return { groups, warnings };
  if (!isObject(value)) return { groups, warnings: ['initialize: "hooks" is not an object; the SDK host\'s hooks were not registered'] };
  for (const [event, entries] of Object.entries(value)) {
    const where = `initialize: hooks.${event}`;
    if (!(SUPPORTED_HOOK_EVENTS as readonly string[]).includes(event)) {
      const known = ALL_CLAUDE_HOOK_EVENTS.includes(event);
      warnings.push(`${where}: ${known ? 'wicket does not fire this event' : 'not a hook event'}; its callbacks never run`);
      continue;
    }
    if (!Array.isArray(entries)) {
      warnings.push(`${where} is not a list; its callbacks were not registered`);
      continue;
    }
    entries.forEach((entry, i) => {
      const group = parseEntry(event as HookEvent, entry, `${where}[${i}]`, warnings);
      if (group) groups.push(group);
    });
  }
  return { groups, warnings };
}

function parseEntry(event: HookEvent, entry: unknown, where: string, warnings: string[]): HookGroup | undefined {
  if (!isObject(entry) || !Array.isArray(entry.hookCallbackIds)) {
    warnings.push(`${where}: no hookCallbackIds list; skipped`);
    return undefined;
  }
  const ids = entry.hookCallbackIds.filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length !== entry.hookCallbackIds.length) warnings.push(`${where}: a callback id that is not a string was skipped`);
  const timeout = typeof entry.timeout === 'number' && entry.timeout > 0 ? entry.timeout : undefined;
  if (entry.timeout !== undefined && timeout === undefined) warnings.push(`${where}: "timeout" must be a positive number of seconds; ignored`);
  const onFailure = entry.onFailure === 'block' || entry.onFailure === 'continue' ? entry.onFailure : undefined;
  // An onFailure wicket cannot read could be a "block": the stricter reading holds.
  if (entry.onFailure !== undefined && onFailure === undefined) warnings.push(`${where}: "onFailure" must be "continue" or "block"; read as "block"`);
  const matcher = typeof entry.matcher === 'string' ? entry.matcher : undefined;
  const hooks: CallbackHook[] = ids.map((callbackId) => ({
    type: 'callback',
    callbackId,
    ...(timeout ? { timeout } : {}),
    onFailure: onFailure ?? (entry.onFailure === undefined ? 'continue' : 'block'),
  }));
  return { event, ...(matcher !== undefined ? { matcher } : {}), hooks, source: 'sdk' };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
