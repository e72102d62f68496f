/**
 * What `wicket config` prints: the settings sources in precedence order, the files that cannot be
 * read (each as `file:line:column: problem`; a session does not start on them), every permission
 * rule with where it came from, hooks, and every warning. Environment values are never printed
 * (settings files often hold secrets there); only the names.
 */
import { describeHandler, isAsyncHandler } from '../base/hook-config.js';
import { formatRule, type ParsedRule } from '../base/rule-parse.js';
import type { LoadedSettings } from './load.js';
import { problemLine } from './problem.js';

export function formatSettingsReport(loaded: LoadedSettings): string {
  const lines: string[] = [];
  lines.push('Settings sources (highest precedence first):');
  const width = Math.max(...loaded.sources.map((s) => s.source.length), 8);
  for (const s of loaded.sources) {
    lines.push(`  ${s.source.padEnd(width)}  ${s.loaded ? 'loaded    ' : s.unreadable ? 'UNREADABLE' : 'not found '}  ${s.path ?? '(command line)'}`);
  }
  if (loaded.errors.length) {
    lines.push('', `Errors (${loaded.errors.length}): these cannot be read as settings, and no session starts until they are fixed:`);
    for (const p of loaded.errors) lines.push(`  ${problemLine(p)}${p.hint ? ` (${p.hint})` : ''}`);
  }
  lines.push('', `Permission mode: ${loaded.defaultMode ?? 'default'}${loaded.defaultMode ? ' (permissions.defaultMode)' : ''}`);
  if (loaded.disableBypassPermissions) lines.push('bypassPermissions mode: disabled (permissions.disableBypassPermissionsMode)');
  if (loaded.additionalDirectories.length) lines.push(`Additional directories: ${loaded.additionalDirectories.join(', ')}`);
  if (loaded.model) lines.push(`Model: ${loaded.model}`);
  const envNames = Object.keys(loaded.env);
  if (envNames.length) lines.push(`Environment (names only): ${envNames.join(', ')}`);
  lines.push('', 'Permission rules (checked deny, then ask, then allow):');
  for (const list of ['deny', 'ask', 'allow'] as const) lines.push(...formatRules(list, loaded.rules[list]));
  lines.push('', ...formatHooks(loaded));
  lines.push('', loaded.warnings.length ? `Warnings (${loaded.warnings.length}):` : 'Warnings: none');
  for (const w of loaded.warnings) lines.push(`  - ${w}`);
  return `${lines.join('\n')}\n`;
}

function formatRules(list: string, rules: ParsedRule[]): string[] {
  if (rules.length === 0) return [`  ${list}: (none)`];
  const shown = rules.map((r) => ({ text: r.error ? r.raw : formatRule(r), rule: r }));
  const width = Math.min(Math.max(...shown.map((s) => s.text.length)), 50);
  return [
    `  ${list}:`,
    ...shown.map(({ text, rule }) => {
      const origin = `${rule.source}${rule.sourcePath ? ` ${rule.sourcePath}` : ''}`;
      const flag = rule.error ? `  (ignored: ${rule.error})` : '';
      return `    ${oneLine(text).padEnd(width)}  ${origin}${flag}`;
    }),
  ];
}

function formatHooks(loaded: LoadedSettings): string[] {
  if (loaded.hookPolicy === 'disableAllHooks') return ['Hooks: all disabled (disableAllHooks)'];
  const title =
    loaded.hookPolicy === 'allowManagedHooksOnly'
      ? 'Hooks (managed only: allowManagedHooksOnly):'
      : loaded.hookPolicy === 'safeMode'
        ? 'Hooks (managed only: safe mode):'
        : 'Hooks:';
  if (loaded.hooks.length === 0) return [`${title} (none)`];
  const lines = [title];
  for (const group of loaded.hooks) {
    for (const h of group.hooks) {
      const matcher = group.matcher === undefined || group.matcher === '' ? '*' : group.matcher;
      const extras = [h.timeout !== undefined ? `timeout ${h.timeout}s` : '', isAsyncHandler(h) ? 'async' : '', h.if ? `if ${h.if}` : '']
        .filter(Boolean)
        .join(', ');
      lines.push(`  ${group.event} [${matcher}]  ${oneLine(describeHandler(h))}  ${group.source}${extras ? `  (${extras})` : ''}`);
    }
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\n/g, '\\n');
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}
