/**
 * The SDK host's hook callbacks (`initialize.hooks`): matcher groups whose handlers are
 * `hook_callback` requests. A request that cannot reach the host (its input ended) counts as
 * undelivered, which the hook gate turns into a block.
 */
import { callbackGroups } from '../hooks/callback-groups.js';
import { HookCallbackUndelivered, type HookCallbackRunner } from '../hooks/run-callback.js';
import type { HookGroup } from '../base/hook-config.js';
import type { ControlChannel } from './control-channel.js';
import type { SdkSession } from './session.js';

/** For the session's set-up: the groups (source `sdk`), how they are delivered, and what in initialize could not be used. */
export function sdkHookCallbacks(session: SdkSession): { groups: HookGroup[]; run: HookCallbackRunner; warnings: string[] } {
  const { groups, warnings } = callbackGroups(session.init?.hooks);
  return { groups, run: hookCallbackRunner(session.channel), warnings };
}

export function hookCallbackRunner(channel: ControlChannel): HookCallbackRunner {
  return async (r, signal) => {
    if (channel.closed) throw new HookCallbackUndelivered('the SDK host is gone (its input ended)');
    try {
      return await channel.request('hook_callback', { callback_id: r.callbackId, input: r.input, tool_use_id: r.toolUseId }, { signal });
    } catch (err) {
      if (!signal.aborted && channel.closed) throw new HookCallbackUndelivered(err instanceof Error ? err.message : String(err));
      throw err;
    }
  };
}
