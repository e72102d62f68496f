/** Permission modes, as Claude Code names them (reference/claude-code.md §3). */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Accepts Claude Code's spellings, including the `manual` alias of `default`. */
export function parsePermissionMode(value: string): PermissionMode | undefined {
  if (value === 'manual') return 'default';
  return (PERMISSION_MODES as readonly string[]).includes(value) ? (value as PermissionMode) : undefined;
}

/** The order Shift+Tab cycles through (bypass only when it was allowed at start). */
export function nextMode(mode: PermissionMode, opts: { allowBypass: boolean }): PermissionMode {
  const cycle: PermissionMode[] = ['default', 'acceptEdits', 'plan'];
  if (opts.allowBypass) cycle.push('bypassPermissions');
  const i = cycle.indexOf(mode);
  return cycle[(i + 1) % cycle.length] ?? 'default';
}
