/**
 * The SDK's requests about the session itself: interrupt, the permission mode, the model and its
 * thinking, flag settings, the settings and rules in force, the session's name, queued messages.
 */
import { parsePermissionMode, type PermissionMode } from '../base/permission-modes.js';
import { DEFAULT_MODEL, parseEffort, resolveModel } from '../base/models.js';
import { randomUuid } from '../base/ids.js';
import { budgetOrOff, thinkingBudget } from '../core/setup/session-setup.js';
import { ControlError, isObject, type ControlPayload } from './control-channel.js';
import type { SdkContext } from './context.js';

export function registerSessionRequests(ctx: SdkContext): void {
  const ch = ctx.session.channel;
  ch.onRequest('interrupt', (req) => ctx.turns.interrupt(req.cancel_queued === true));
  ch.onRequest('set_permission_mode', (req) => setPermissionMode(ctx, req));
  ch.onRequest('set_model', (req) => setModel(ctx, req.model));
  ch.onRequest('set_max_thinking_tokens', (req) => {
    const answer = setThinking(ctx, req.max_thinking_tokens);
    // How thinking is shown is not wicket's to choose: said, so that it is not taken as done.
    if (typeof req.thinking_display === 'string') {
      const text = `thinking display "${req.thinking_display}" is not applied in wicket: thinking blocks come as the API sends them`;
      ctx.write({
        type: 'system',
        subtype: 'informational',
        message: text,
        content: text,
        level: 'warning',
        session_id: ctx.base.sessionId,
        uuid: randomUuid(),
      });
    }
    return answer;
  });
  ch.onRequest('apply_flag_settings', (req) => applyFlagSettings(ctx, req.settings));
  ch.onRequest('get_settings', () => ({ effective: ctx.setup.loaded.merged, sources: ctx.setup.loaded.sources }));
  ch.onRequest('list_permission_rules', () => rulesListing(ctx));
  ch.onRequest('rename_session', (req) => {
    if (typeof req.title !== 'string' || !req.title.trim()) throw new ControlError('rename_session needs a title', 'invalid_request');
    ctx.transcript?.name(req.title.trim());
    return {};
  });
  ch.onRequest('cancel_async_message', (req) => ({ cancelled: typeof req.message_uuid === 'string' && ctx.queue.drop(req.message_uuid).length > 0 }));
}

function setPermissionMode(ctx: SdkContext, req: ControlPayload): ControlPayload {
  const raw = typeof req.mode === 'string' ? req.mode : '';
  const mode = parsePermissionMode(raw);
  if (!mode) {
    const why = raw === 'auto' ? 'auto mode is not available in wicket' : `unknown permission mode "${raw}"`;
    throw new ControlError(`Cannot set permission mode to ${raw || '(none)'}: ${why}`, 'invalid_mode');
  }
  if (mode === 'bypassPermissions') bypassAllowed(ctx);
  ctx.base.permission.mode = mode;
  ctx.write({ type: 'system', subtype: 'status', status: null, permissionMode: mode, uuid: randomUuid(), session_id: ctx.base.sessionId });
  return { mode };
}

/** bypassPermissions only for a session launched to allow it, and never against a policy that disables it. */
function bypassAllowed(ctx: SdkContext): void {
  if (ctx.setup.loaded.disableBypassPermissions)
    throw new ControlError('Cannot set permission mode to bypassPermissions because the settings disable it (disableBypassPermissionsMode)', 'bypass_disabled');
  if (!ctx.opts.dangerouslySkipPermissions && !ctx.opts.allowDangerouslySkipPermissions)
    throw new ControlError(
      'Cannot set permission mode to bypassPermissions because the session was not launched with --dangerously-skip-permissions',
      'bypass_not_launched',
    );
}

function setModel(ctx: SdkContext, model: unknown): ControlPayload {
  if (model !== undefined && model !== null && typeof model !== 'string') throw new ControlError('set_model: model must be a string', 'invalid_request');
  // No model, or "default": the default model (the settings', else wicket's), not the launch --model, as in Claude Code.
  const chosen = !model || model === 'default' ? (resolveModel(ctx.setup.loaded.model) ?? DEFAULT_MODEL) : resolveModel(model)!;
  ctx.turns.change((a) => {
    a.model = chosen;
  });
  return {};
}

function setThinking(ctx: SdkContext, tokens: unknown): ControlPayload {
  if (tokens !== null && tokens !== undefined && (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0))
    throw new ControlError('set_max_thinking_tokens: max_thinking_tokens must be a whole number or null', 'invalid_request');
  const budget = typeof tokens === 'number' ? budgetOrOff(tokens) : thinkingBudget(ctx.base.env, ctx.setup.loaded.merged);
  ctx.turns.change((a) => {
    a.thinkingBudget = budget;
  });
  return {};
}

/** The flag settings a running session can take: model, effort, thinking, permission mode. Anything else is refused, unapplied. */
function applyFlagSettings(ctx: SdkContext, settings: unknown): ControlPayload {
  if (!isObject(settings)) throw new ControlError('apply_flag_settings needs a settings object', 'invalid_request');
  const known = ['model', 'effortLevel', 'alwaysThinkingEnabled', 'permissions'];
  const other = Object.keys(settings).filter((k) => !known.includes(k));
  const perms = isObject(settings.permissions) ? settings.permissions : undefined;
  const permKeys = perms ? Object.keys(perms).filter((k) => k !== 'defaultMode') : [];
  if (other.length || permKeys.length)
    throw new ControlError(
      `wicket cannot apply ${[...other, ...permKeys.map((k) => `permissions.${k}`)].join(', ')} to a running session`,
      'unsupported_setting',
    );
  const effort = settings.effortLevel === null ? 'auto' : parseEffort(settings.effortLevel);
  if (settings.effortLevel !== undefined && !effort) throw new ControlError(`unknown effortLevel ${String(settings.effortLevel)}`, 'invalid_request');
  if (perms?.defaultMode !== undefined) setPermissionMode(ctx, { mode: perms.defaultMode });
  if (settings.model !== undefined) setModel(ctx, settings.model);
  ctx.turns.change((a) => {
    if (effort) a.effort = effort === 'auto' ? undefined : effort;
    if (settings.alwaysThinkingEnabled === true) a.thinkingBudget ??= thinkingBudget({}, { alwaysThinkingEnabled: true });
    if (settings.alwaysThinkingEnabled === false) a.thinkingBudget = undefined;
  });
  return {};
}

function rulesListing(ctx: SdkContext): ControlPayload {
  const rules = ctx.base.permission.rules;
  const list = (kind: 'allow' | 'ask' | 'deny') =>
    rules[kind].map((r) => ({ rule: r.raw, source: r.source, ...(r.sourcePath ? { path: r.sourcePath } : {}), ...(r.error ? { error: r.error } : {}) }));
  const mode: PermissionMode = ctx.base.permission.mode;
  return { mode, allow: list('allow'), ask: list('ask'), deny: list('deny') };
}
