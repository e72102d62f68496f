/** `wicket config`: which settings sources loaded, every rule with its origin, and the warnings. */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { loadSettings } from '../settings/load.js';
import { formatRule } from '../permissions/rule-parse.js';

export async function runConfig(_args: string[]): Promise<number> {
  const env = process.env;
  const loaded = loadSettings({
    cwd: realpathSync(process.cwd()),
    home: env.HOME ?? homedir(),
    configDir: env.CLAUDE_CONFIG_DIR || undefined,
    managedPath: env.WICKET_MANAGED_SETTINGS || undefined,
  });
  const lines: string[] = ['Settings sources (highest precedence first):'];
  for (const s of loaded.sources) lines.push(`  ${s.loaded ? '✓' : '·'} ${s.source}${s.path ? `  ${s.path}` : ''}`);
  for (const list of ['deny', 'ask', 'allow'] as const) {
    lines.push(`${list} rules:`);
    const rules = loaded.rules[list];
    if (!rules.length) lines.push('  (none)');
    for (const r of rules) lines.push(`  ${formatRule(r)}  [${r.source}${r.sourcePath ? ` ${r.sourcePath}` : ''}]`);
  }
  if (loaded.defaultMode) lines.push(`default mode: ${loaded.defaultMode}`);
  if (loaded.warnings.length) {
    lines.push('warnings:');
    for (const w of loaded.warnings) lines.push(`  ${w}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
